package gitsync

import (
	"context"
	"fmt"
	"maps"

	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/sites"
)

// External links of a synced site (docs/workers.md, "Site-wide Git
// Sync"): docs.yaml's external-link nodes are the site's external links,
// kept by key like sections (the state maps each key to the link's id).

// placeLinks gives every external-link node its link (groupID: group keys
// to ids): the one its key stood for, changed to say what the node says
// (its group too), else a new one at the end of its level. The order
// among sections and groups is set afterwards, with theirs.
func (s *Service) placeLinks(ctx context.Context, orgID, siteID string, site model.Site, nodes []model.SiteGitNode, groupID map[string]string, old map[string]model.SiteGitNode) (model.Site, error) {
	var err error
	for i := range nodes {
		n := &nodes[i]
		if n.Type != "external-link" {
			continue
		}
		group := groupID[n.Parent]
		n.ID = ""
		if o, ok := old[n.Key]; ok && o.Type == "external-link" {
			if l, err := sites.TreeOf(&site).ExternalLink(o.ID); err == nil {
				n.ID = l.ID
				in, changed := linkChange(*l, *n, group)
				if !changed {
					continue
				}
				if site, _, err = s.structure.UpdateExternalLink(ctx, orgID, siteID, n.ID, in); err != nil {
					return site, fmt.Errorf("external link %q: %w", n.Key, err)
				}
				continue
			}
		}
		in, _ := linkChange(model.SiteExternalLink{}, *n, group)
		in.ClearParent, in.Parent = false, &group
		if site, n.ID, _, err = s.structure.AddExternalLink(ctx, orgID, siteID, in); err != nil {
			return site, fmt.Errorf("external link %q: %w", n.Key, err)
		}
	}
	return site, nil
}

// linkChange is what turns link l into what node n says, in group ("" the
// top level); false when they say the same already.
func linkChange(l model.SiteExternalLink, n model.SiteGitNode, group string) (sites.ExternalLinkInput, bool) {
	var in sites.ExternalLinkInput
	var c fieldChanges
	c.str(&in.Title, nil, l.Title, n.Title)
	c.str(&in.URL, nil, l.URL, n.URL)
	c.str(&in.Description, &in.ClearDescription, l.Description, n.Description)
	c.str(&in.Icon, &in.ClearIcon, l.Icon, n.Icon)
	c.str(&in.Condition, &in.ClearCondition, l.Condition, n.Condition)
	c.str(&in.Parent, &in.ClearParent, l.Group, group)
	localized := func(field **map[string]string, clear *bool, have, want map[string]string) {
		if maps.Equal(have, want) {
			return
		}
		c.changed = true
		if len(want) == 0 {
			*clear = true
			return
		}
		w := maps.Clone(want)
		*field = &w
	}
	localized(&in.LocalizedTitle, &in.ClearLocalizedTitle, l.LocalizedTitle, n.LocalizedTitle)
	localized(&in.LocalizedDescription, &in.ClearLocalizedDescription, l.LocalizedDescription, n.LocalizedDescription)
	if l.Draft != n.Draft {
		d := n.Draft
		in.Draft, c.changed = &d, true
	}
	return in, c.changed
}

// linkNode describes link l as docs.yaml's node: kept's key (a new key
// when the link is new to the state), under the group of key groupKey.
func linkNode(l model.SiteExternalLink, kept model.SiteGitNode, groupKey string) model.SiteGitNode {
	n := kept
	n.Type, n.Parent, n.ID, n.SpaceID = "external-link", groupKey, l.ID, ""
	n.Title, n.URL, n.Description, n.Icon, n.Condition, n.Draft = l.Title, l.URL, l.Description, l.Icon, l.Condition, l.Draft
	n.LocalizedTitle, n.LocalizedDescription = maps.Clone(l.LocalizedTitle), maps.Clone(l.LocalizedDescription)
	n.Path, n.Default, n.Hidden, n.Directory, n.Language = "", false, false, nil, ""
	return n
}

// fieldChanges collects the fields of a change from what a record has and
// what docs.yaml wants: str sets a string field where they differ (or its
// clear flag, where the wanted value is empty and the field can be
// cleared); changed says whether any field was set.
// fieldChanges fills a partial update of a site's structure item with
// what docs.yaml says differently; changed tells whether anything does.
type fieldChanges struct{ changed bool }

// str sets field to want when it differs from have; an empty want sets
// clear instead where the field has one.
func (c *fieldChanges) str(field **string, clear *bool, have, want string) {
	if have == want {
		return
	}
	c.changed = true
	if want == "" && clear != nil {
		*clear = true
		return
	}
	w := want
	*field = &w
}

// flag sets field to want when it differs from have.
func (c *fieldChanges) flag(field **bool, have, want bool) {
	if have != want {
		c.changed = true
		*field = &want
	}
}

package orgs

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/mergerules"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/paging"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
)

// Defaults of a new organization.
const (
	DefaultType = "business"
	DefaultPlan = "free_2024"
)

// maxEmailDomains bounds an organization's email domains, so that replacing
// them all (one delete and one put per domain, plus the organization) fits in
// one transaction.
const maxEmailDomains = 40

// OrgForCaller is an organization as one caller sees it.
type OrgForCaller struct {
	Org model.Organization
	// Member is false when the caller sees the organization without being
	// a member (GET /v1/email-domains/{emailDomain}/orgs); Role and
	// OwnsTeam are then empty.
	Member   bool
	Role     model.Role
	OwnsTeam bool
}

// Permissions are the caller's permissions on the organization; a
// non-member has none.
func (o OrgForCaller) Permissions() access.OrgPermissions {
	if !o.Member {
		return access.OrgPermissions{}
	}
	return access.ForOrg(o.Role, o.OwnsTeam)
}

// NewOrganization is what creating an organization takes.
type NewOrganization struct {
	Title         string
	Type          string // "" is DefaultType
	UseCase       string
	CommunityType string
	EmailDomains  []string
	Hostname      string
}

// OrganizationPatch changes an organization; nil fields are left unchanged.
type OrganizationPatch struct {
	Title        *string
	EmailDomains *[]string // replaces the set; empty clears it
	Hostname     *string
	// DefaultRole set to RoleGuest clears it (guests by default).
	DefaultRole *model.Role
	// ClearDefaultContent removes the default content; DefaultContent sets it.
	ClearDefaultContent bool
	DefaultContent      *model.SitePointer
	Logo                *string // "" clears it
	SSO, AI             *bool
	InviteLinks         *bool
	// MergeRules replaces the organization's merge rules.
	MergeRules *model.MergeRules
}

// CreateOrganization makes an organization whose only member, an admin, is
// the caller. Any authenticated user may, except with a token scoped to
// another organization (an SSO sign-in's), which could never act in it.
func (s *Service) CreateOrganization(ctx context.Context, in NewOrganization) (OrgForCaller, error) {
	c, err := access.CallerFrom(ctx)
	if err != nil {
		return OrgForCaller{}, err
	}
	if c.OrgID != "" {
		return OrgForCaller{}, apperr.Forbiddenf("this token acts only in organization %s (it comes from its SSO sign-in); create organizations with another token", c.OrgID)
	}
	title, err := checkTitle(in.Title)
	if err != nil {
		return OrgForCaller{}, err
	}
	domains, err := normalizeDomains(in.EmailDomains)
	if err != nil {
		return OrgForCaller{}, err
	}
	hostname := ""
	if in.Hostname != "" {
		if hostname, err = checkHostname(in.Hostname); err != nil {
			return OrgForCaller{}, err
		}
	}
	typ := in.Type
	if typ == "" {
		typ = DefaultType
	}
	now := s.d.Clock()
	o := model.Organization{ID: ids.New(now), Title: title, CreatedAt: now, EmailDomains: domains, Hostname: hostname,
		Type: typ, UseCase: in.UseCase, CommunityType: in.CommunityType, InviteLinks: true, Plan: DefaultPlan}
	m := model.Member{OrgID: o.ID, UserID: c.UserID, Role: model.RoleAdmin, JoinedAt: now}
	ops := []store.Op{
		store.Put(records.Item(keys.Org(o.ID), o, 1), store.IfNotExists),
		store.Put(memberItem(m, 1), store.IfNotExists),
		s.audit.Op(ctx, change(o.ID, model.AuditOrgCreated, targetOrg, o.ID, map[string]any{"title": o.Title})),
	}
	for _, d := range domains {
		ops = append(ops, store.Put(domainItem(d, o.ID), store.Always))
	}
	if hostname != "" {
		if err := s.hostnameFree(ctx, hostname, o.ID); err != nil {
			return OrgForCaller{}, err
		}
		ops = append(ops, store.Put(hostnameItem(hostname, o.ID), store.IfNotExists))
	}
	if err := s.d.Store.Write(ctx, ops...); errors.Is(err, store.ErrConflict) && hostname != "" {
		return OrgForCaller{}, hostnameTaken(hostname)
	} else if err != nil {
		return OrgForCaller{}, fmt.Errorf("create organization: %w", err)
	}
	return OrgForCaller{Org: o, Member: true, Role: model.RoleAdmin}, nil
}

// ListOrganizations lists the organizations the caller is a member of, by
// organization id (that is, in creation order), from the user's memberships
// (GSI1).
func (s *Service) ListOrganizations(ctx context.Context, r paging.Request) (paging.Page[OrgForCaller], error) {
	c, err := access.CallerFrom(ctx)
	if err != nil {
		return paging.Page[OrgForCaller]{}, err
	}
	p, err := records.Page[model.Member](ctx, s.d.Store, s.d.Cursors, paging.Scope("listOrganizations", keys.UserOrgs(c.UserID)),
		store.Query{Index: store.GSI1, PK: keys.UserOrgs(c.UserID), SKPrefix: keys.OrgPrefix}, r, "memberships")
	if err != nil {
		return paging.Page[OrgForCaller]{}, err
	}
	// Disabled memberships give no access, nor do other organizations to a
	// token scoped to one (an SSO sign-in's); the page is then shorter.
	ms := slices.DeleteFunc(p.Items, func(m model.Member) bool { return m.Disabled || (c.OrgID != "" && m.OrgID != c.OrgID) })
	ks := make([]keys.Key, len(ms))
	for i, m := range ms {
		ks[i] = keys.Org(m.OrgID)
	}
	read, err := records.GetAll[model.Organization](ctx, s.d.Store, ks)
	if err != nil {
		return paging.Page[OrgForCaller]{}, err
	}
	out := make([]OrgForCaller, len(ms))
	for i, m := range ms {
		owns, err := s.ownsTeam(ctx, m)
		if err != nil {
			return paging.Page[OrgForCaller]{}, err
		}
		out[i] = OrgForCaller{Org: read[i], Member: true, Role: m.Role, OwnsTeam: owns}
	}
	return paging.Page[OrgForCaller]{Items: out, Next: p.Next}, nil
}

// GetOrganization returns an organization the caller is a member of
// (guests included).
func (s *Service) GetOrganization(ctx context.Context, orgID string) (OrgForCaller, error) {
	m, err := s.d.Authz.RequireOrg(ctx, orgID, access.ViewOrg)
	if err != nil {
		return OrgForCaller{}, err
	}
	o, _, err := s.getOrg(ctx, orgID)
	if err != nil {
		return OrgForCaller{}, err
	}
	owns, err := s.ownsTeam(ctx, m.Member)
	if err != nil {
		return OrgForCaller{}, err
	}
	return OrgForCaller{Org: o, Member: true, Role: m.Role(), OwnsTeam: owns}, nil
}

// UpdateOrganization changes an organization (admins only). Changing the
// email domains rewrites their index items in the same transaction.
func (s *Service) UpdateOrganization(ctx context.Context, orgID string, p OrganizationPatch) (OrgForCaller, error) {
	m, err := s.d.Authz.RequireOrg(ctx, orgID, access.AdminOrg)
	if err != nil {
		return OrgForCaller{}, err
	}
	var title, hostname string
	if p.Title != nil {
		if title, err = checkTitle(*p.Title); err != nil {
			return OrgForCaller{}, err
		}
	}
	var domains []string
	if p.EmailDomains != nil {
		if domains, err = normalizeDomains(*p.EmailDomains); err != nil {
			return OrgForCaller{}, err
		}
	}
	if p.Hostname != nil {
		if hostname, err = checkHostname(*p.Hostname); err != nil {
			return OrgForCaller{}, err
		}
	}
	if p.DefaultRole != nil && !p.DefaultRole.Valid() {
		return OrgForCaller{}, apperr.Field("defaultRole", "unknown role %q", *p.DefaultRole)
	}
	if p.DefaultContent != nil && (p.DefaultContent.Type != "site" || strings.TrimSpace(p.DefaultContent.Site) == "") {
		return OrgForCaller{}, apperr.Field("defaultContent", "must be {type: site, site: <site id>}")
	}
	if p.Logo != nil && *p.Logo != "" {
		if err := checkURL(*p.Logo); err != nil {
			return OrgForCaller{}, apperr.Field("logo", "%v", err)
		}
	}
	if p.MergeRules != nil {
		if err := mergerules.Validate("mergeRules", *p.MergeRules, false); err != nil {
			return OrgForCaller{}, err
		}
	}
	o, err := records.Update(ctx, s.d.Store, keys.Org(orgID), nil, func(o *model.Organization) ([]store.Op, error) {
		var ops []store.Op
		if p.MergeRules != nil {
			r := *p.MergeRules
			o.MergeRules = &r
			if r.Type == model.MergeRulesNone {
				o.MergeRules = nil
			}
		}
		if p.Title != nil {
			o.Title = title
		}
		if p.EmailDomains != nil {
			for _, d := range o.EmailDomains {
				if !slices.Contains(domains, d) {
					k := keys.EmailDomain(d, orgID)
					ops = append(ops, store.Delete(k.PK, k.SK, store.Always))
				}
			}
			for _, d := range domains {
				if !slices.Contains(o.EmailDomains, d) {
					ops = append(ops, store.Put(domainItem(d, orgID), store.Always))
				}
			}
			o.EmailDomains = domains
		}
		if p.Hostname != nil {
			if hostname != "" {
				owner, err := HostnameOrg(ctx, s.d.Store, hostname)
				if err != nil {
					return nil, err
				}
				if owner != "" && owner != orgID {
					return nil, hostnameTaken(hostname)
				}
				if owner == "" {
					ops = append(ops, store.Put(hostnameItem(hostname, orgID), store.IfNotExists))
				}
			}
			if o.Hostname != "" && o.Hostname != hostname {
				if owner, err := HostnameOrg(ctx, s.d.Store, o.Hostname); err != nil {
					return nil, err
				} else if owner == orgID {
					k := keys.OrgHostname(o.Hostname)
					ops = append(ops, store.Delete(k.PK, k.SK, store.Always))
				}
			}
			o.Hostname = hostname
		}
		records.Set(&o.DefaultRole, p.DefaultRole)
		if p.ClearDefaultContent {
			o.DefaultContent = nil
		}
		if p.DefaultContent != nil {
			dc := *p.DefaultContent
			o.DefaultContent = &dc
		}
		records.Set(&o.Logo, p.Logo)
		records.Set(&o.SSO, p.SSO)
		records.Set(&o.AI, p.AI)
		records.Set(&o.InviteLinks, p.InviteLinks)
		return append(ops, s.audit.Op(ctx, change(orgID, model.AuditOrgSettings, targetOrg, orgID, nil))), nil
	})
	if errors.Is(err, store.ErrNotFound) {
		return OrgForCaller{}, apperr.NotFoundf("organization %s not found", orgID)
	}
	if err != nil {
		return OrgForCaller{}, fmt.Errorf("update organization: %w", err)
	}
	owns, err := s.ownsTeam(ctx, m.Member)
	if err != nil {
		return OrgForCaller{}, err
	}
	return OrgForCaller{Org: o, Member: true, Role: m.Role(), OwnsTeam: owns}, nil
}

// maxDomainOrgs bounds the organizations read for one email domain (one
// query page); the answer of GET /v1/email-domains/{emailDomain}/orgs is not
// paged.
const maxDomainOrgs = store.MaxQueryLimit

// OrganizationsByEmailDomain lists the organizations that name domain among
// their email domains, as far as the caller may see them. An organization is
// shown to its members, and to every user whose own email address is at that
// domain: those are the people the domain declares as belonging to the
// organization, who may be invited to it. Anyone else gets an empty list, so
// that the endpoint does not reveal which organizations exist.
func (s *Service) OrganizationsByEmailDomain(ctx context.Context, domain string) ([]OrgForCaller, error) {
	c, err := access.CallerFrom(ctx)
	if err != nil {
		return nil, err
	}
	domain = strings.TrimPrefix(strings.ToLower(strings.TrimSpace(domain)), "@")
	if !validDomain(domain) {
		return nil, apperr.Field("emailDomain", "not a valid domain name")
	}
	u, err := s.users.Get(ctx, c.UserID)
	if err != nil {
		return nil, err
	}
	_, userDomain, _ := strings.Cut(u.Email, "@")
	atDomain := strings.EqualFold(userDomain, domain)
	page, err := s.d.Store.Query(ctx, store.Query{PK: keys.DomainPartition(domain), SKPrefix: keys.OrgPrefix, Limit: maxDomainOrgs})
	if err != nil {
		return nil, fmt.Errorf("list organizations of domain: %w", err)
	}
	out := []OrgForCaller{}
	for _, it := range page.Items {
		ref, err := records.Decode[domainRef](it)
		if err != nil {
			return nil, err
		}
		m, err := s.d.Authz.Membership(ctx, c, ref.OrgID)
		member := err == nil
		if err != nil && !apperr.Is(err, apperr.NotFound) {
			return nil, err
		}
		if !member && !atDomain {
			continue
		}
		o, _, err := s.getOrg(ctx, ref.OrgID)
		if apperr.Is(err, apperr.NotFound) {
			continue // an index item outliving its organization
		}
		if err != nil {
			return nil, err
		}
		view := OrgForCaller{Org: o, Member: member}
		if member {
			view.Role = m.Role()
			if view.OwnsTeam, err = s.ownsTeam(ctx, m.Member); err != nil {
				return nil, err
			}
		}
		out = append(out, view)
	}
	return out, nil
}

// checkTitle trims an organization title and checks its length.
func checkTitle(title string) (string, error) {
	title = strings.TrimSpace(title)
	if n := utf8.RuneCountInString(title); n < 2 || n > 255 {
		return "", apperr.Field("title", "must be 2 to 255 characters")
	}
	return title, nil
}

// hostnameRef is the reservation of an organization's hostname.
type hostnameRef struct {
	OrgID string `json:"orgId"`
}

func hostnameItem(hostname, orgID string) store.Item {
	return records.Item(keys.OrgHostname(hostname), hostnameRef{OrgID: orgID}, 1)
}

// HostnameOrg returns the organization holding hostname ("" for none):
// the sites family resolves <hostname>.<SITES_DOMAIN> with it. An
// organization that set its hostname before hostnames were reserved holds
// none until it sets it again.
func HostnameOrg(ctx context.Context, st store.Store, hostname string) (string, error) {
	ref, _, err := records.Get[hostnameRef](ctx, st, keys.OrgHostname(hostname))
	if errors.Is(err, store.ErrNotFound) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read hostname: %w", err)
	}
	return ref.OrgID, nil
}

// HeldHostname returns the hostname of the organization orgID when it
// holds it ("" when it has none, or set it before hostnames were
// reserved): the sites family publishes under it.
func HeldHostname(ctx context.Context, st store.Store, orgID string) (string, error) {
	o, _, err := records.Get[model.Organization](ctx, st, keys.Org(orgID))
	if errors.Is(err, store.ErrNotFound) || (err == nil && o.Hostname == "") {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read organization: %w", err)
	}
	holder, err := HostnameOrg(ctx, st, o.Hostname)
	if err != nil || holder != orgID {
		return "", err
	}
	return o.Hostname, nil
}

// hostnameFree fails with a Conflict naming hostname when another
// organization holds it.
func (s *Service) hostnameFree(ctx context.Context, hostname, orgID string) error {
	owner, err := HostnameOrg(ctx, s.d.Store, hostname)
	if err != nil {
		return err
	}
	if owner != "" && owner != orgID {
		return hostnameTaken(hostname)
	}
	return nil
}

func hostnameTaken(hostname string) error {
	return apperr.Conflictf("hostname: %q is another organization's", hostname)
}

// checkHostname lower-cases a hostname and checks that it is one DNS label
// of 3 to 32 characters: it names the organization's public content under
// the instance's default domain.
func checkHostname(h string) (string, error) {
	h = strings.ToLower(strings.TrimSpace(h))
	if n := len(h); n < 3 || n > 32 || !validLabel(h) {
		return "", apperr.Field("hostname", "must be 3 to 32 letters, digits or inner hyphens")
	}
	return h, nil
}

// checkURL accepts absolute http(s) URLs.
func checkURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return errors.New("must be an absolute http or https URL")
	}
	return nil
}

// normalizeDomains lower-cases, checks and de-duplicates email domains
// (keeping their order); an invalid one is reported as emailDomains[i].
func normalizeDomains(in []string) ([]string, error) {
	out := []string{}
	for i, d := range in {
		d = strings.TrimPrefix(strings.ToLower(strings.TrimSpace(d)), "@")
		if !validDomain(d) {
			return nil, apperr.Field(fmt.Sprintf("emailDomains[%d]", i), "not a valid domain name")
		}
		if !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	if len(out) > maxEmailDomains {
		return nil, apperr.Field("emailDomains", "at most %d domains", maxEmailDomains)
	}
	return out, nil
}

// validDomain accepts lower-case names of at least two DNS labels.
func validDomain(d string) bool {
	if len(d) > 253 {
		return false
	}
	labels := strings.Split(d, ".")
	if len(labels) < 2 {
		return false
	}
	for _, l := range labels {
		if !validLabel(l) {
			return false
		}
	}
	return true
}

// validLabel accepts a DNS label: 1 to 63 lower-case letters, digits or
// hyphens, not at either end.
func validLabel(l string) bool {
	if len(l) == 0 || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
		return false
	}
	for i := 0; i < len(l); i++ {
		c := l[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

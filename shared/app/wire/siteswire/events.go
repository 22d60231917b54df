package siteswire

import (
	"context"
	"log/slog"

	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/sites"
)

// Emitter is told of what happened once it is written (the families'
// Events interfaces: changerequests.Events, sites.Events...).
type Emitter interface {
	Emit(ctx context.Context, e model.Event)
}

// spaceContentUpdated is the event of a space's new head revision
// (webhooks.SpaceContentUpdated, GitBook's name).
const spaceContentUpdated = "space_content_updated"

// ContentEvents returns next (the webhooks' emitter) or, in a process with
// a CDN (deps.Deps.CDN), an emitter that tells next and then the root's
// sites service of each space's new head (space_content_updated: merges,
// content and Git imports), so that the CDN's copies of the published
// pages showing the space are invalidated (sites.SpaceChanged,
// docs/reader.md "CDN"). The roots that land content call it when they
// provide changerequests.Events.
func ContentEvents(r *app.Root, next Emitter) Emitter {
	if r.Deps.CDN == nil {
		return next
	}
	return contentEvents{next: next, sites: Service(r), log: r.Deps.Logger}
}

type contentEvents struct {
	next  Emitter
	sites *sites.Service
	log   *slog.Logger
}

// Emit tells next, then invalidates a changed space's published pages; a
// failure is logged (the change stands; the CDN's copies expire).
func (c contentEvents) Emit(ctx context.Context, e model.Event) {
	if c.next != nil {
		c.next.Emit(ctx, e)
	}
	if e.Type != spaceContentUpdated {
		return
	}
	spaceID, _ := e.Fields["spaceId"].(string)
	revision, _ := e.Fields["revisionId"].(string)
	if err := c.sites.SpaceChanged(ctx, e.OrgID, spaceID, revision); err != nil {
		c.log.WarnContext(ctx, "CDN not invalidated: its copies expire by themselves", "space", spaceID, "err", err.Error())
	}
}

package sites

import (
	"context"

	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/store"
)

// Recorder records the sites' administrative changes (publishing,
// visibility, share links) in the organization's audit log (package audit;
// the process's root gives it). Op is the event's write for the change's
// own transaction (docs/audit.md).
type Recorder interface {
	Op(ctx context.Context, ch model.AuditChange) store.Op
}

// record returns the event's write of a change of site.
func (s *Service) record(ctx context.Context, site model.Site, action string, payload map[string]any) store.Op {
	return s.audit.Op(ctx, model.AuditChange{OrgID: site.OrgID, Action: action, Target: model.AuditRef{Type: "site", ID: site.ID}, Payload: payload})
}

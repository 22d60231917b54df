package orgs

import (
	"context"

	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/store"
)

// Recorder records the organization's administrative changes in its audit
// log (package audit; the process's root gives it). Op is the event's
// write for the change's own transaction; Record writes it alone, right
// after a change made of several transactions (docs/audit.md).
type Recorder interface {
	Op(ctx context.Context, ch model.AuditChange) store.Op
	Record(ctx context.Context, ch model.AuditChange) error
}

// change describes a change of an organization for its audit log.
func change(orgID, action, targetType, targetID string, payload map[string]any) model.AuditChange {
	return model.AuditChange{OrgID: orgID, Action: action, Target: model.AuditRef{Type: targetType, ID: targetID}, Payload: payload}
}

// Audit targets of the organizations family.
const (
	targetOrg    = "organization"
	targetMember = "member"
	targetTeam   = "team"
	targetInvite = "invite"
)

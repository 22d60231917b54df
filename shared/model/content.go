package model

import "time"

// GitCommit is the Git commit a revision came from or went to (Git Sync).
type GitCommit struct {
	OID              string `json:"oid"`
	Message          string `json:"message"`
	CreatedByGitBook bool   `json:"createdByGitBook"`
	URL              string `json:"url,omitempty"`
	Ref              string `json:"ref,omitempty"`
}

// Change request statuses (the reference's ChangeRequestStatus).
const (
	CRDraft    = "draft"
	CROpen     = "open"
	CRArchived = "archived"
	CRMerged   = "merged"
)

// ChangeRequest proposes edits to a space's content: a line of revisions
// branched from the space's head, merged back when accepted.
type ChangeRequest struct {
	ID          string    `json:"id"`
	SpaceID     string    `json:"spaceId"`
	Number      int       `json:"number"`
	Status      string    `json:"status"`
	Subject     string    `json:"subject"`
	AgentTaskID string    `json:"agentTaskId,omitempty"`
	CreatedBy   string    `json:"createdBy"`
	CreatedAt   time.Time `json:"createdAt"`
	UpdatedAt   time.Time `json:"updatedAt"`
	// Revision is the request's head.
	Revision string `json:"revision"`
	// RevisionInitial is the space head the request branched from.
	RevisionInitial string `json:"revisionInitial"`
	// RevisionMergedAncestor is the space head last pulled in by an update.
	RevisionMergedAncestor string `json:"revisionMergedAncestor,omitempty"`
	// RevisionMerged is the space revision its merge made.
	RevisionMerged string `json:"revisionMerged,omitempty"`
	Comments       int    `json:"comments"`
	// Contributors are the users who created or authored the request.
	Contributors []string `json:"contributors"`
	// OrgID is the organization of the request's space when the request
	// was last written with its space at hand (creation, update, edits,
	// merge); "" for requests written before it was kept. It places the
	// request in its organization's lists.
	OrgID string `json:"orgId,omitempty"`
	// Edits count the changes each contributor made (batches of changes,
	// updates from the space), kept since requests record them.
	Edits []Contribution `json:"edits,omitempty"`
}

// Base is the space revision the request's changes are relative to: the
// merge base of a merge or an update.
func (c ChangeRequest) Base() string {
	if c.RevisionMergedAncestor != "" {
		return c.RevisionMergedAncestor
	}
	return c.RevisionInitial
}

// Active reports whether the request still accepts changes.
func (c ChangeRequest) Active() bool { return c.Status == CRDraft || c.Status == CROpen }

// Review statuses (the reference's ChangeRequestReviewStatus).
const (
	ReviewApproved         = "approved"
	ReviewChangesRequested = "changes-requested"
)

// Review is a reviewer's verdict on a change request at one of its
// revisions.
type Review struct {
	ID              string `json:"id"`
	SpaceID         string `json:"spaceId"`
	ChangeRequestID string `json:"changeRequestId"`
	// Revision is the request's revision when it was reviewed.
	Revision string `json:"revision"`
	Reviewer string `json:"reviewer"`
	// RequestedBy is who asked for the review, "" when nobody did.
	RequestedBy string `json:"requestedBy,omitempty"`
	Status      string `json:"status"`
	// Outdated is set when the reviewer reviews again or is asked again.
	Outdated bool `json:"outdated"`
	// Comment is the id of the comment posted with the review in the
	// change request's comments, "" for none.
	Comment   string    `json:"comment,omitempty"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// ReviewRequest is a pending request for a user's review.
type ReviewRequest struct {
	SpaceID         string    `json:"spaceId"`
	ChangeRequestID string    `json:"changeRequestId"`
	User            string    `json:"user"`
	RequestedBy     string    `json:"requestedBy"`
	Revision        string    `json:"revision"`
	CreatedAt       time.Time `json:"createdAt"`
}

// Merge rules configuration types (the reference's MergeRules*
// configurations): a space inherits its organization's by default; an
// organization has none by default.
const (
	MergeRulesInherit = "inherit"
	MergeRulesNone    = "none"
	MergeRulesRules   = "rules"
)

// MergeRules says what a change request needs before it may be merged.
type MergeRules struct {
	Type  string      `json:"type"`
	Rules []MergeRule `json:"rules,omitempty"`
}

// MergeRule is one rule; Users is set for the rules that name users.
type MergeRule struct {
	Rule  string   `json:"rule"`
	Users []string `json:"users,omitempty"`
}

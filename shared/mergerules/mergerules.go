// Package mergerules validates merge rules configurations (an
// organization's, a space's) and decides whether a change request meets
// them. It is pure: callers read the records and pass the facts.
//
// Decisions (docs/reviews.md has them with the API):
//   - A space's configuration is "inherit" (the default: its
//     organization's applies), "none" or "rules"; an organization's is
//     "none" (the default) or "rules".
//   - Supported rules: require_at_least_one_review,
//     require_at_least_one_approved_review, require_all_reviews_approved,
//     require_specific_reviewers, require_one_of_specific_reviewers,
//     allow_bypass, require_up_to_date_change_request,
//     require_change_request_subject, require_author_to_merge. The
//     reference's require_agent_review, require_change_request_description
//     and custom are refused with a 400: Galley has no review agent, no
//     request description and no expression language, and a rule that
//     cannot be checked must not be stored as if it were enforced.
//   - Reviews count while current: a reviewer's latest review, until they
//     are asked to review again. A pending review request counts as not
//     approved for require_all_reviews_approved.
//   - allow_bypass lets the users it names merge whatever the other rules
//     say.
package mergerules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/model"
)

// Limits of a configuration.
const (
	MaxRules = 20
	MaxUsers = 50
)

// Rule names.
const (
	AtLeastOneReview         = "require_at_least_one_review"
	AtLeastOneApprovedReview = "require_at_least_one_approved_review"
	AllReviewsApproved       = "require_all_reviews_approved"
	SpecificReviewers        = "require_specific_reviewers"
	OneOfSpecificReviewers   = "require_one_of_specific_reviewers"
	AllowBypass              = "allow_bypass"
	UpToDate                 = "require_up_to_date_change_request"
	Subject                  = "require_change_request_subject"
	AuthorToMerge            = "require_author_to_merge"
)

// namesUsers tells the rules that name users (and need at least one).
func namesUsers(rule string) bool {
	return rule == SpecificReviewers || rule == OneOfSpecificReviewers || rule == AllowBypass
}

// unsupported gives why Galley refuses one of the reference's rules.
func unsupported(rule string) (string, bool) {
	switch rule {
	case "require_agent_review":
		return "Galley has no review agent", true
	case "require_change_request_description":
		return "Galley's change requests have no description", true
	case "custom":
		return "Galley has no expression language for custom rules", true
	}
	return "", false
}

// Validate checks a configuration sent as field (mergeRules); space tells
// whether "inherit" is allowed.
func Validate(field string, r model.MergeRules, space bool) error {
	switch r.Type {
	case model.MergeRulesInherit:
		if !space {
			return apperr.Field(field+".type", "an organization's merge rules are none or rules")
		}
		fallthrough
	case model.MergeRulesNone:
		if len(r.Rules) > 0 {
			return apperr.Field(field+".rules", "rules go with type rules")
		}
		return nil
	case model.MergeRulesRules:
	default:
		return apperr.Field(field+".type", "unknown merge rules type %q", r.Type)
	}
	if len(r.Rules) > MaxRules {
		return apperr.Field(field+".rules", "at most %d rules", MaxRules)
	}
	seen := map[string]bool{}
	for i, rule := range r.Rules {
		at := fmt.Sprintf("%s.rules[%d]", field, i)
		if why, ok := unsupported(rule.Rule); ok {
			return apperr.Field(at+".rule", "%s is not supported: %s", rule.Rule, why)
		}
		if !known(rule.Rule) {
			return apperr.Field(at+".rule", "unknown rule %q", rule.Rule)
		}
		if seen[rule.Rule] {
			return apperr.Field(at+".rule", "%s is given twice", rule.Rule)
		}
		seen[rule.Rule] = true
		named := namesUsers(rule.Rule)
		switch {
		case named && len(rule.Users) == 0:
			return apperr.Field(at+".users", "%s names at least one user", rule.Rule)
		case !named && len(rule.Users) > 0:
			return apperr.Field(at+".users", "%s names no users", rule.Rule)
		case len(rule.Users) > MaxUsers:
			return apperr.Field(at+".users", "at most %d users", MaxUsers)
		}
		for j, u := range rule.Users {
			if u == "" || len(u) > 64 || strings.ContainsFunc(u, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
				return apperr.Field(fmt.Sprintf("%s.users[%d]", at, j), "not a user id")
			}
		}
	}
	return nil
}

func known(rule string) bool {
	switch rule {
	case AtLeastOneReview, AtLeastOneApprovedReview, AllReviewsApproved, SpecificReviewers,
		OneOfSpecificReviewers, AllowBypass, UpToDate, Subject, AuthorToMerge:
		return true
	}
	return false
}

// Effective is the configuration that applies to a space's requests.
func Effective(space, org *model.MergeRules) model.MergeRules {
	if space != nil && space.Type != model.MergeRulesInherit {
		return *space
	}
	if org != nil {
		return *org
	}
	return model.MergeRules{Type: model.MergeRulesNone}
}

// Facts are what the rules are checked against.
type Facts struct {
	// Merger is the user merging; Author the request's creator.
	Merger, Author string
	Subject        string
	// UpToDate: the request's base is the space's head.
	UpToDate bool
	// Reviews are the request's current reviews (one per reviewer).
	Reviews []model.Review
	// Pending are the users asked to review who have not yet.
	Pending []string
}

// Check answers nil when the facts meet the rules, else a Conflict naming
// every rule not met.
func Check(r model.MergeRules, f Facts) error {
	if r.Type != model.MergeRulesRules {
		return nil
	}
	for _, rule := range r.Rules {
		if rule.Rule == AllowBypass && slices.Contains(rule.Users, f.Merger) {
			return nil
		}
	}
	approved := map[string]bool{}
	for _, rv := range f.Reviews {
		approved[rv.Reviewer] = rv.Status == model.ReviewApproved
	}
	anyApproved := slices.ContainsFunc(f.Reviews, func(rv model.Review) bool { return rv.Status == model.ReviewApproved })
	var failed []string
	fail := func(rule, why string) { failed = append(failed, rule+" ("+why+")") }
	for _, rule := range r.Rules {
		switch rule.Rule {
		case AtLeastOneReview:
			if len(f.Reviews) == 0 {
				fail(rule.Rule, "no review")
			}
		case AtLeastOneApprovedReview:
			if !anyApproved {
				fail(rule.Rule, "no approving review")
			}
		case AllReviewsApproved:
			switch {
			case len(f.Reviews) == 0:
				fail(rule.Rule, "no review")
			case len(f.Pending) > 0:
				fail(rule.Rule, fmt.Sprintf("%d requested reviews pending", len(f.Pending)))
			default:
				for _, rv := range f.Reviews {
					if rv.Status != model.ReviewApproved {
						fail(rule.Rule, "changes requested")
						break
					}
				}
			}
		case SpecificReviewers:
			var missing []string
			for _, u := range rule.Users {
				if !approved[u] {
					missing = append(missing, u)
				}
			}
			if len(missing) > 0 {
				fail(rule.Rule, "no approval from "+strings.Join(missing, ", "))
			}
		case OneOfSpecificReviewers:
			if !slices.ContainsFunc(rule.Users, func(u string) bool { return approved[u] }) {
				fail(rule.Rule, "no approval from any of "+strings.Join(rule.Users, ", "))
			}
		case UpToDate:
			if !f.UpToDate {
				fail(rule.Rule, "the space changed since; update the change request")
			}
		case Subject:
			if strings.TrimSpace(f.Subject) == "" {
				fail(rule.Rule, "the change request has no subject")
			}
		case AuthorToMerge:
			if f.Merger != f.Author {
				fail(rule.Rule, "only its author may merge it")
			}
		}
	}
	if len(failed) > 0 {
		return apperr.Conflictf("merge rules not met: %s", strings.Join(failed, "; "))
	}
	return nil
}

package mergerules

import (
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/model"
)

// SpaceConfig is the API shape of a space's merge rules (the reference's
// MergeRulesSpaceConfiguration).
type SpaceConfig struct {
	Type  string `json:"type" enum:"inherit,none,rules" doc:"inherit: the organization's rules apply"`
	Rules []Rule `json:"rules,omitempty" nullable:"false" maxItems:"20" doc:"With type rules: every rule must pass"`
}

// OrgConfig is the API shape of an organization's merge rules (the
// reference's MergeRulesStandaloneConfiguration).
type OrgConfig struct {
	Type  string `json:"type" enum:"none,rules"`
	Rules []Rule `json:"rules,omitempty" nullable:"false" maxItems:"20" doc:"With type rules: every rule must pass"`
}

// Rule is the API shape of one rule (the reference's MergeRule).
type Rule struct {
	Rule  string   `json:"rule" maxLength:"64" doc:"require_at_least_one_review, require_at_least_one_approved_review, require_all_reviews_approved, require_specific_reviewers, require_one_of_specific_reviewers, allow_bypass, require_up_to_date_change_request, require_change_request_subject or require_author_to_merge"`
	Users []ids.ID `json:"users,omitempty" nullable:"false" maxItems:"50" doc:"User ids, for the rules that name users"`
	// Expression and Message belong to GitBook's custom rule, which Galley
	// refuses; they are read so that the refusal names the rule.
	Expression any    `json:"expression,omitempty" doc:"Custom rules are not supported (refused)"`
	Message    string `json:"message,omitempty" maxLength:"500" doc:"Custom rules are not supported (refused)"`
}

// FromModel renders a stored configuration; nil is def.
func FromModel(r *model.MergeRules, def string) (string, []Rule) {
	if r == nil {
		return def, nil
	}
	var rules []Rule
	for _, x := range r.Rules {
		rules = append(rules, Rule{Rule: x.Rule, Users: ids.FromStrings(x.Users)})
	}
	return r.Type, rules
}

// ToModel is the configuration a client sent.
func ToModel(typ string, rules []Rule) model.MergeRules {
	out := model.MergeRules{Type: typ}
	for _, x := range rules {
		out.Rules = append(out.Rules, model.MergeRule{Rule: x.Rule, Users: ids.Strings(x.Users)})
	}
	return out
}

// SpaceView renders a space's configuration (inherit when unset).
func SpaceView(r *model.MergeRules) SpaceConfig {
	t, rules := FromModel(r, model.MergeRulesInherit)
	return SpaceConfig{Type: t, Rules: rules}
}

// OrgView renders an organization's configuration (none when unset).
func OrgView(r *model.MergeRules) OrgConfig {
	t, rules := FromModel(r, model.MergeRulesNone)
	return OrgConfig{Type: t, Rules: rules}
}

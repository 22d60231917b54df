package mergerules

import (
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/model"
)

func rules(rs ...model.MergeRule) model.MergeRules {
	return model.MergeRules{Type: model.MergeRulesRules, Rules: rs}
}

func TestValidateNamesTheField(t *testing.T) {
	for name, c := range map[string]struct {
		r     model.MergeRules
		space bool
		field string
	}{
		"inherit on an organization": {model.MergeRules{Type: "inherit"}, false, "mergeRules.type"},
		"unknown type":               {model.MergeRules{Type: "some"}, true, "mergeRules.type"},
		"rules with none":            {model.MergeRules{Type: "none", Rules: []model.MergeRule{{Rule: AuthorToMerge}}}, true, "mergeRules.rules"},
		"custom":                     {rules(model.MergeRule{Rule: Subject}, model.MergeRule{Rule: "custom"}), true, "mergeRules.rules[1].rule"},
		"agent review":               {rules(model.MergeRule{Rule: "require_agent_review"}), true, "mergeRules.rules[0].rule"},
		"unknown rule":               {rules(model.MergeRule{Rule: "require_luck"}), true, "mergeRules.rules[0].rule"},
		"twice":                      {rules(model.MergeRule{Rule: Subject}, model.MergeRule{Rule: Subject}), true, "mergeRules.rules[1].rule"},
		"no users":                   {rules(model.MergeRule{Rule: SpecificReviewers}), true, "mergeRules.rules[0].users"},
		"users where none go":        {rules(model.MergeRule{Rule: AtLeastOneReview, Users: []string{"u1"}}), true, "mergeRules.rules[0].users"},
		"NUL in a user id":           {rules(model.MergeRule{Rule: AllowBypass, Users: []string{"u1", "u\x002"}}), true, "mergeRules.rules[0].users[1]"},
	} {
		err := Validate("mergeRules", c.r, c.space)
		if !apperr.Is(err, apperr.Invalid) || !strings.HasPrefix(err.Error(), c.field+":") {
			t.Errorf("%s: %v, want an invalid %s", name, err, c.field)
		}
	}
	for _, ok := range []model.MergeRules{{Type: "none"}, rules(model.MergeRule{Rule: OneOfSpecificReviewers, Users: []string{"u1"}}, model.MergeRule{Rule: UpToDate})} {
		if err := Validate("mergeRules", ok, false); err != nil {
			t.Errorf("%v refused: %v", ok, err)
		}
	}
}

func TestCheck(t *testing.T) {
	approved := model.Review{Reviewer: "r1", Status: model.ReviewApproved}
	changes := model.Review{Reviewer: "r2", Status: model.ReviewChangesRequested}
	base := Facts{Merger: "m", Author: "a", Subject: "s", UpToDate: true}
	with := func(f func(*Facts)) Facts { c := base; f(&c); return c }
	for name, c := range map[string]struct {
		rule model.MergeRule
		f    Facts
		ok   bool
	}{
		"one review: none":          {model.MergeRule{Rule: AtLeastOneReview}, base, false},
		"one review: changes":       {model.MergeRule{Rule: AtLeastOneReview}, with(func(f *Facts) { f.Reviews = []model.Review{changes} }), true},
		"one approved: changes":     {model.MergeRule{Rule: AtLeastOneApprovedReview}, with(func(f *Facts) { f.Reviews = []model.Review{changes} }), false},
		"one approved: approved":    {model.MergeRule{Rule: AtLeastOneApprovedReview}, with(func(f *Facts) { f.Reviews = []model.Review{approved} }), true},
		"all approved: mixed":       {model.MergeRule{Rule: AllReviewsApproved}, with(func(f *Facts) { f.Reviews = []model.Review{approved, changes} }), false},
		"all approved: pending":     {model.MergeRule{Rule: AllReviewsApproved}, with(func(f *Facts) { f.Reviews, f.Pending = []model.Review{approved}, []string{"r3"} }), false},
		"all approved: yes":         {model.MergeRule{Rule: AllReviewsApproved}, with(func(f *Facts) { f.Reviews = []model.Review{approved} }), true},
		"specific: one missing":     {model.MergeRule{Rule: SpecificReviewers, Users: []string{"r1", "r2"}}, with(func(f *Facts) { f.Reviews = []model.Review{approved, changes} }), false},
		"one of specific: one":      {model.MergeRule{Rule: OneOfSpecificReviewers, Users: []string{"r1", "r2"}}, with(func(f *Facts) { f.Reviews = []model.Review{approved, changes} }), true},
		"up to date: behind":        {model.MergeRule{Rule: UpToDate}, with(func(f *Facts) { f.UpToDate = false }), false},
		"subject: blank":            {model.MergeRule{Rule: Subject}, with(func(f *Facts) { f.Subject = "  " }), false},
		"author: another merges":    {model.MergeRule{Rule: AuthorToMerge}, base, false},
		"author: the author merges": {model.MergeRule{Rule: AuthorToMerge}, with(func(f *Facts) { f.Merger = "a" }), true},
	} {
		err := Check(rules(c.rule), c.f)
		if (err == nil) != c.ok || (err != nil && (!apperr.Is(err, apperr.Conflict) || !strings.Contains(err.Error(), c.rule.Rule))) {
			t.Errorf("%s: %v", name, err)
		}
	}
	// allow_bypass lets the users it names past every other rule.
	r := rules(model.MergeRule{Rule: AtLeastOneReview}, model.MergeRule{Rule: AllowBypass, Users: []string{"boss"}})
	if err := Check(r, base); err == nil {
		t.Fatal("no review and no bypass: merged")
	}
	if err := Check(r, with(func(f *Facts) { f.Merger = "boss" })); err != nil {
		t.Fatalf("bypass refused: %v", err)
	}
	if err := Check(model.MergeRules{Type: "none"}, base); err != nil {
		t.Fatalf("no rules refused: %v", err)
	}
	if got := Effective(&model.MergeRules{Type: "inherit"}, &r); got.Type != "rules" {
		t.Fatalf("inherited rules: %v", got)
	}
}

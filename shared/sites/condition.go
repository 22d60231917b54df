package sites

import cond "github.com/galleydocs/galley/shared/condition"

// ConditionHolds tells whether a section's, site space's, page's or header
// link's condition holds for a visitor's claims ("" always holds, unknown
// syntax never does): the one evaluator (package condition) the reader and
// the site search ask through the sites family.
func ConditionHolds(src string, claims map[string]any) bool { return cond.Holds(src, claims) }

// ValidateCondition refuses a condition of unknown syntax, naming field.
func ValidateCondition(field, src string) error { return cond.Validate(field, src) }

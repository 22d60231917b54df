package condition

import (
	"sort"
	"unicode/utf8"

	"github.com/galleydocs/galley/shared/apperr"
)

// MaxVariableText is the longest text a variable may hold, in characters
// (GitBook's VariableValue).
const MaxVariableText = 256

// ValidVariableName tells whether name may name a variable (space.vars or
// page.vars): GitBook's rule, a letter, then letters, digits or
// underscores (ASCII).
func ValidVariableName(name string) bool {
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !letter && (i == 0 || c != '_' && (c < '0' || c > '9')) {
			return false
		}
	}
	return true
}

// ValidateVariables refuses variables GitBook's Variables would not hold:
// a name that is not a variable name, or a value that is not a string of
// at most MaxVariableText characters, a number or a boolean. The error
// names field.<name>; names are checked in sorted order, so the error is
// the same for the same variables.
func ValidateVariables(field string, vars map[string]any) error {
	names := make([]string, 0, len(vars))
	for k := range vars {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if !ValidVariableName(k) {
			return apperr.Field(field, "%q is not a variable name: a letter, then letters, digits or underscores", k)
		}
		switch v := normalize(vars[k]).(type) {
		case bool, float64:
		case string:
			if utf8.RuneCountInString(v) > MaxVariableText {
				return apperr.Field(field+"."+k, "expected at most %d characters", MaxVariableText)
			}
		default:
			return apperr.Field(field+"."+k, "expected a string, a number or a boolean")
		}
	}
	return nil
}

package httpapi

import "net/http"

// ReturnPreference is GitBook's prefer header of the writes that may
// answer without the written record (its x-gitbook-return-preference
// operations): return=minimal asks for 204 without a body.
type ReturnPreference struct {
	Prefer string `header:"prefer" enum:"return=minimal,return=representation" doc:"return=minimal: answer 204 without the record"`
}

// PreferredOut is the answer of such a write: the record (200), or 204
// with Preference-Applied when the caller asked for return=minimal.
type PreferredOut[T any] struct {
	Status            int
	PreferenceApplied string `header:"Preference-Applied" enum:"return=minimal" doc:"Says the minimal answer was chosen as asked"`
	Body              *T
}

// minimal is the prefer header's value asking for no body.
const minimal = "return=minimal"

// Preferred answers a write whose answer is out, as p asks: out's record,
// or 204 and no body for return=minimal. The operation declares 204 (Also:
// MinimalAnswer).
func Preferred[T any](p ReturnPreference) func(*Out[T], error) (*PreferredOut[T], error) {
	return func(out *Out[T], err error) (*PreferredOut[T], error) {
		if err != nil {
			return nil, err
		}
		if p.Prefer == minimal {
			return &PreferredOut[T]{Status: http.StatusNoContent, PreferenceApplied: minimal}, nil
		}
		return &PreferredOut[T]{Status: http.StatusOK, Body: &out.Body}, nil
	}
}

// MinimalAnswer is the description of a preferred write's 204.
func MinimalAnswer() map[int]string {
	return map[int]string{http.StatusNoContent: "Written, answered without the record as the prefer header asked"}
}

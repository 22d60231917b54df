package content

// Position keys order siblings: strings of base-62 digits compared byte by
// byte, never ending in the lowest digit, so that a key exists strictly
// between any two. Inserting between two pages makes a key between theirs
// and renumbers nobody, which keeps concurrent inserts and moves mergeable.

const posDigits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

func posDigit(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'A' && c <= 'Z':
		return int(c-'A') + 10
	case c >= 'a' && c <= 'z':
		return int(c-'a') + 36
	}
	return 0
}

// Between returns a key strictly between lo and hi ("" for lo is the start,
// "" for hi the end); lo must sort before hi. Appending (hi == "") steps
// the digit up and prepending (lo == "") steps it down instead of halving,
// so that keys of pages added one after another at an end grow by one digit
// every 30 or so pages rather than every 6.
func Between(lo, hi string) string {
	var out []byte
	upperOpen := hi == ""
	for i := 0; ; i++ {
		lowerOpen := i >= len(lo)
		a := 0
		if !lowerOpen {
			a = posDigit(lo[i])
		}
		b := len(posDigits)
		if !upperOpen && i < len(hi) {
			b = posDigit(hi[i])
		}
		if a == b {
			out = append(out, posDigits[a])
			continue
		}
		if b-a > 1 {
			m := (a + b) / 2
			switch {
			case upperOpen && lowerOpen:
			case upperOpen:
				m = a + 1
			case lowerOpen:
				m = b - 1
			}
			return string(append(out, posDigits[m]))
		}
		// b == a+1: keep a's digit; anything after it sorts below hi.
		out = append(out, posDigits[a])
		upperOpen = true
	}
}

// Spread returns n increasing keys spaced evenly, for building a tree.
func Spread(n int) []string {
	keys := make([]string, n)
	width := 1
	for c := len(posDigits) - 1; c < n+1; c *= len(posDigits) {
		width++
	}
	total := 1
	for i := 0; i < width; i++ {
		total *= len(posDigits)
	}
	step := total / (n + 1)
	for i := range keys {
		v := step * (i + 1)
		b := make([]byte, width)
		for j := width - 1; j >= 0; j-- {
			b[j] = posDigits[v%len(posDigits)]
			v /= len(posDigits)
		}
		// Trailing lowest digits carry no order; dropping them keeps the
		// "never ends in the lowest digit" rule.
		for len(b) > 1 && b[len(b)-1] == posDigits[0] {
			b = b[:len(b)-1]
		}
		keys[i] = string(b)
	}
	return keys
}

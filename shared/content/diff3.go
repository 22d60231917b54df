package content

import "strings"

// maxEditDistance bounds the line diff: past it, the differing middle of
// two texts is treated as wholly replaced (which can only turn a clean merge
// into a conflict, never lose a change).
const maxEditDistance = 2000

// Merge3 merges two edits (ours, theirs) of a base text line by line, as
// diff3 does: regions changed on one side take that side; regions changed
// identically on both take either; regions changed differently on both,
// including edits to adjacent lines, conflict. ok is false on conflict.
func Merge3(base, ours, theirs string) (merged string, ok bool) {
	return merge3(base, ours, theirs, false)
}

// Merge3Theirs is Merge3 where a conflicting region takes theirs: ours'
// edits are kept where theirs left the base alone (Git Sync's rewrite of
// a SUMMARY.md keeps what the branch's file holds beyond Galley's own
// rendering).
func Merge3Theirs(base, ours, theirs string) string {
	merged, _ := merge3(base, ours, theirs, true)
	return merged
}

func merge3(base, ours, theirs string, preferTheirs bool) (merged string, ok bool) {
	o, a, b := splitLines(base), splitLines(ours), splitLines(theirs)
	ma, mb := matches(o, a), matches(o, b)
	var out []string
	io, ia, ib := 0, 0, 0
	for {
		// A stable run: lines of the base matched, in step, on both sides.
		n := 0
		for io+n < len(o) && ia+n < len(a) && ib+n < len(b) && ma[io+n] == ia+n && mb[io+n] == ib+n {
			n++
		}
		if n > 0 {
			out = append(out, o[io:io+n]...)
			io, ia, ib = io+n, ia+n, ib+n
			continue
		}
		if io == len(o) && ia == len(a) && ib == len(b) {
			break
		}
		// An unstable chunk: up to the next base line matched on both sides.
		j := io
		for j < len(o) && (ma[j] < ia || mb[j] < ib) {
			j++
		}
		ea, eb := len(a), len(b)
		if j < len(o) {
			ea, eb = ma[j], mb[j]
		}
		co, ca, cb := o[io:j], a[ia:ea], b[ib:eb]
		switch {
		case equal(ca, co):
			out = append(out, cb...)
		case equal(cb, co), equal(ca, cb):
			out = append(out, ca...)
		case preferTheirs:
			out = append(out, cb...)
		default:
			return "", false
		}
		io, ia, ib = j, ea, eb
	}
	return strings.Join(out, ""), true
}

// splitLines splits a text into lines that keep their "\n".
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// matches returns, for each line of a, the line of b it matches in a
// longest common subsequence (-1 for none).
func matches(a, b []string) []int {
	m := make([]int, len(a))
	for i := range m {
		m[i] = -1
	}
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		m[p] = p
		p++
	}
	s := 0
	for s < len(a)-p && s < len(b)-p && a[len(a)-1-s] == b[len(b)-1-s] {
		m[len(a)-1-s] = len(b) - 1 - s
		s++
	}
	for _, pair := range myers(a[p:len(a)-s], b[p:len(b)-s]) {
		m[p+pair[0]] = p + pair[1]
	}
	return m
}

// myers finds the matched lines of a shortest edit script (Myers, 1986),
// or none when the edit distance exceeds maxEditDistance.
func myers(a, b []string) [][2]int {
	n, m := len(a), len(b)
	if n == 0 || m == 0 {
		return nil
	}
	limit := min(n+m, maxEditDistance)
	off := limit + 1
	v := make([]int, 2*off+1)
	// trace[d] keeps v[k] for k in -(d+1)..d+1 as step d found it.
	var trace [][]int
	for d := 0; d <= limit; d++ {
		band := make([]int, 2*d+3)
		copy(band, v[off-d-1:off+d+2])
		trace = append(trace, band)
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x, y = x+1, y+1
			}
			v[off+k] = x
			if x >= n && y >= m {
				return backtrack(trace, n, m)
			}
		}
	}
	return nil
}

func backtrack(trace [][]int, x, y int) [][2]int {
	var pairs [][2]int
	for d := len(trace) - 1; d >= 0; d-- {
		band := trace[d]
		at := func(k int) int { return band[k+d+1] }
		k := x - y
		var pk int
		if k == -d || (k != d && at(k-1) < at(k+1)) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := at(pk)
		py := px - pk
		for x > px && y > py {
			x, y = x-1, y-1
			pairs = append(pairs, [2]int{x, y})
		}
		x, y = px, py
	}
	return pairs
}

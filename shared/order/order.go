// Package order makes order keys: strings whose byte order is the order of
// the items carrying them, such that a key can always be made between any
// two others. Moving an item rewrites its own key only; its siblings keep
// theirs.
//
// The scheme is fractional indexing: a key is an integer part (a head
// character giving its length, then base-62 digits) followed by a fraction
// with no trailing zero. Appending at either end increments or decrements
// the integer part, so keys stay short for lists built by appending; only
// repeated insertion into the same gap lengthens the fraction, by about one
// character per six insertions.
package order

import (
	"errors"
	"strings"
)

// digits are the base-62 digits, in byte order.
const digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// smallestInteger is reserved: no key is made below it.
const smallestInteger = "A00000000000000000000000000"

// ErrInvalid reports a key that this package did not make, or bounds out of order.
var ErrInvalid = errors.New("order: invalid key or bounds")

// First is the key of the first item of an empty list.
const First = "a0"

// Between returns a key strictly between a and b. a == "" means no lower
// bound and b == "" no upper bound; with both empty it returns First.
func Between(a, b string) (string, error) {
	if a != "" {
		if err := validate(a); err != nil {
			return "", err
		}
	}
	if b != "" {
		if err := validate(b); err != nil {
			return "", err
		}
	}
	if a != "" && b != "" && a >= b {
		return "", ErrInvalid
	}
	switch {
	case a == "" && b == "":
		return First, nil
	case a == "":
		ib := integerPart(b)
		fb := b[len(ib):]
		if ib == smallestInteger {
			m, err := midpoint("", fb)
			return ib + m, err
		}
		if ib < b {
			return ib, nil
		}
		d, ok := decrement(ib)
		if !ok {
			return "", ErrInvalid
		}
		return d, nil
	case b == "":
		ia := integerPart(a)
		fa := a[len(ia):]
		if i, ok := increment(ia); ok {
			return i, nil
		}
		m, err := midpoint(fa, "")
		return ia + m, err
	}
	ia, ib := integerPart(a), integerPart(b)
	fa, fb := a[len(ia):], b[len(ib):]
	if ia == ib {
		m, err := midpoint(fa, fb)
		return ia + m, err
	}
	i, ok := increment(ia)
	if !ok {
		return "", ErrInvalid
	}
	if i < b {
		return i, nil
	}
	m, err := midpoint(fa, "")
	return ia + m, err
}

// midpoint returns a fraction strictly between fractions a and b (b == ""
// means 1). Fractions have no trailing zero digit.
func midpoint(a, b string) (string, error) {
	if b != "" && a >= b {
		return "", ErrInvalid
	}
	if strings.HasSuffix(a, "0") || strings.HasSuffix(b, "0") {
		return "", ErrInvalid
	}
	if b != "" {
		// Keep the common prefix (a padded with zeros) and recurse past it.
		n := 0
		for n < len(b) && digitAt(a, n) == b[n] {
			n++
		}
		if n > 0 {
			m, err := midpoint(slice(a, n), b[n:])
			return b[:n] + m, err
		}
	}
	da := 0
	if a != "" {
		da = strings.IndexByte(digits, a[0])
	}
	db := len(digits)
	if b != "" {
		db = strings.IndexByte(digits, b[0])
	}
	if db-da > 1 {
		return string(digits[(da+db+1)/2]), nil
	}
	if len(b) > 1 {
		return b[:1], nil
	}
	m, err := midpoint(slice(a, 1), "")
	return string(digits[da]) + m, err
}

func digitAt(s string, i int) byte {
	if i < len(s) {
		return s[i]
	}
	return '0'
}

func slice(s string, n int) string {
	if n >= len(s) {
		return ""
	}
	return s[n:]
}

// integerLength is the length of an integer part by its head character.
func integerLength(head byte) int {
	switch {
	case head >= 'a' && head <= 'z':
		return int(head-'a') + 2
	case head >= 'A' && head <= 'Z':
		return int('Z'-head) + 2
	}
	return 0
}

func integerPart(key string) string {
	n := integerLength(key[0])
	if n == 0 || n > len(key) {
		return key
	}
	return key[:n]
}

// validate checks that key is one this package makes.
func validate(key string) error {
	if key == "" || key == smallestInteger {
		return ErrInvalid
	}
	n := integerLength(key[0])
	if n == 0 || n > len(key) {
		return ErrInvalid
	}
	for i := 1; i < len(key); i++ {
		if strings.IndexByte(digits, key[i]) < 0 {
			return ErrInvalid
		}
	}
	if len(key) > n && key[len(key)-1] == '0' {
		return ErrInvalid
	}
	return nil
}

// increment returns the next integer part; false past the largest one.
func increment(x string) (string, bool) {
	head, ds := x[0], []byte(x[1:])
	carry := true
	for i := len(ds) - 1; carry && i >= 0; i-- {
		d := strings.IndexByte(digits, ds[i]) + 1
		if d == len(digits) {
			ds[i] = '0'
		} else {
			ds[i] = digits[d]
			carry = false
		}
	}
	if !carry {
		return string(head) + string(ds), true
	}
	switch head {
	case 'Z':
		return "a0", true
	case 'z':
		return "", false
	}
	h := head + 1
	if h > 'a' {
		ds = append(ds, '0')
	} else {
		ds = ds[:len(ds)-1]
	}
	return string(h) + string(ds), true
}

// decrement returns the previous integer part; false below the smallest one.
func decrement(x string) (string, bool) {
	head, ds := x[0], []byte(x[1:])
	borrow := true
	for i := len(ds) - 1; borrow && i >= 0; i-- {
		d := strings.IndexByte(digits, ds[i]) - 1
		if d == -1 {
			ds[i] = digits[len(digits)-1]
		} else {
			ds[i] = digits[d]
			borrow = false
		}
	}
	if !borrow {
		return string(head) + string(ds), true
	}
	switch head {
	case 'a':
		return "Z" + string(digits[len(digits)-1]), true
	case 'A':
		return "", false
	}
	h := head - 1
	if h < 'Z' {
		ds = append(ds, digits[len(digits)-1])
	} else {
		ds = ds[:len(ds)-1]
	}
	return string(h) + string(ds), true
}

package sites

import (
	"errors"
	"strconv"
	"strings"
)

// ParseRison decodes a value in Rison, the compact JSON of URLs GitBook's
// preview takes its visitor claims in: objects (a:1,b:'x y'), arrays
// !(1,2), !t, !f, !n, numbers, quoted strings ('it!'s', with !! and !'
// as escapes) and bare words (ids such as pro or a-b). Depth is bounded.
func ParseRison(s string) (any, error) {
	p := &risonParser{s: s}
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	if p.i != len(p.s) {
		return nil, p.fail("unexpected text after the value")
	}
	return v, nil
}

type risonParser struct {
	s string
	i int
}

// maxRisonDepth bounds nested objects and arrays.
const maxRisonDepth = 32

// notIDChars may not appear in a bare word.
const notIDChars = " '!:(),*@$"

func (p *risonParser) fail(msg string) error {
	return errors.New("rison at " + strconv.Itoa(p.i) + ": " + msg)
}

func (p *risonParser) value(depth int) (any, error) {
	if depth > maxRisonDepth {
		return nil, p.fail("nested too deep")
	}
	if p.i >= len(p.s) {
		return nil, p.fail("a value is missing")
	}
	switch c := p.s[p.i]; {
	case c == '(':
		p.i++
		return p.object(depth)
	case c == '\'':
		p.i++
		return p.quoted()
	case c == '!':
		if p.i+1 >= len(p.s) {
			return nil, p.fail("! ends the text")
		}
		p.i += 2
		switch p.s[p.i-1] {
		case 't':
			return true, nil
		case 'f':
			return false, nil
		case 'n':
			return nil, nil
		case '(':
			return p.array(depth)
		}
		return nil, p.fail("unknown ! escape")
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	}
	w := p.word()
	if w == "" {
		return nil, p.fail("a value is missing")
	}
	return w, nil
}

func (p *risonParser) word() string {
	start := p.i
	for p.i < len(p.s) && !strings.ContainsRune(notIDChars, rune(p.s[p.i])) {
		p.i++
	}
	return p.s[start:p.i]
}

func (p *risonParser) number() (any, error) {
	start := p.i
	for p.i < len(p.s) && strings.ContainsRune("0123456789.eE+-", rune(p.s[p.i])) {
		p.i++
	}
	f, err := strconv.ParseFloat(p.s[start:p.i], 64)
	if err != nil {
		return nil, p.fail("not a number")
	}
	return f, nil
}

func (p *risonParser) quoted() (any, error) {
	var b strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		p.i++
		switch c {
		case '\'':
			return b.String(), nil
		case '!':
			if p.i >= len(p.s) || (p.s[p.i] != '!' && p.s[p.i] != '\'') {
				return nil, p.fail("in a string, ! escapes only ! and '")
			}
			b.WriteByte(p.s[p.i])
			p.i++
		default:
			b.WriteByte(c)
		}
	}
	return nil, p.fail("unterminated string")
}

// items reads the items of an object or array up to its closing ')',
// separated by commas, each with item.
func (p *risonParser) items(item func() error) error {
	for first := true; ; first = false {
		if p.i < len(p.s) && p.s[p.i] == ')' {
			p.i++
			return nil
		}
		if !first {
			if p.i >= len(p.s) || p.s[p.i] != ',' {
				return p.fail("want , or )")
			}
			p.i++
		}
		if err := item(); err != nil {
			return err
		}
	}
}

func (p *risonParser) object(depth int) (any, error) {
	out := map[string]any{}
	err := p.items(func() error {
		var key string
		if p.i < len(p.s) && p.s[p.i] == '\'' {
			p.i++
			k, err := p.quoted()
			if err != nil {
				return err
			}
			key = k.(string)
		} else if key = p.word(); key == "" {
			return p.fail("a key is missing")
		}
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return p.fail("want : after a key")
		}
		p.i++
		v, err := p.value(depth + 1)
		out[key] = v
		return err
	})
	return out, err
}

func (p *risonParser) array(depth int) (any, error) {
	out := []any{}
	err := p.items(func() error {
		v, err := p.value(depth + 1)
		out = append(out, v)
		return err
	})
	return out, err
}

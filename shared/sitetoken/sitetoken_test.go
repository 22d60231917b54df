package sitetoken

import (
	"strings"
	"testing"
	"time"
)

func TestIssueVerify(t *testing.T) {
	key := []byte("k1")
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tok, err := Issue(key, Claims{Site: "si1", Organization: "o1", Spaces: []string{"s1"}}, now)
	if err != nil {
		t.Fatal(err)
	}
	if !Looks(tok) || Looks("gly_abc") || Looks("my.bootstrap.token") {
		t.Fatal("Looks")
	}
	c, err := Verify(key, tok, now.Add(TTL-time.Second))
	if err != nil || c.Site != "si1" || c.Organization != "o1" || c.Kind != "site" || len(c.Spaces) != 1 || c.Expires != now.Add(TTL).Unix() {
		t.Fatalf("claims %+v, %v", c, err)
	}
	if _, err := Verify(key, tok, now.Add(TTL)); err != ErrInvalid {
		t.Errorf("expired token: %v", err)
	}
	if _, err := Verify([]byte("k2"), tok, now); err != ErrInvalid {
		t.Errorf("token of another key: %v", err)
	}
	parts := strings.Split(tok, ".")
	forged, _ := Issue([]byte("k2"), Claims{Site: "si2", Organization: "o1"}, now)
	if _, err := Verify(key, parts[0]+"."+strings.Split(forged, ".")[1]+"."+parts[2], now); err != ErrInvalid {
		t.Errorf("claims swapped under a valid signature: %v", err)
	}
	for _, bad := range []string{"", "a.b.c", parts[0] + "." + parts[1] + ".", tok + "x"} {
		if _, err := Verify(key, bad, now); err != ErrInvalid {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

package reader

import (
	"crypto/sha256"
	"encoding/base64"
	"hash"
	"net/url"
	"strings"
)

// The reader's security headers (docs/reader.md, "Security headers"). A
// page's Content-Security-Policy allows exactly its own inline script and
// style elements, by their SHA-256 hashes (not nonces: a page's HTML is
// cached and revalidated by its ETag, and a nonce would have to change with
// every answer), and nothing from another origin but content's images and
// the known video players' frames.

// ReferrerPolicy is every reader answer's Referrer-Policy: other origins
// learn the site's origin only, never a page's path or query (a share
// link's key is in the query).
const ReferrerPolicy = "strict-origin-when-cross-origin"

// DataPolicy is the Content-Security-Policy of answers that are not pages
// (markdown, llms.txt, sitemap.xml, robots.txt, JSON): nothing runs or
// loads in them and no page frames them.
const DataPolicy = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

// playerOrigins are the origins of the players whose frames embeds show
// (playerURL).
const playerOrigins = "https://www.youtube-nocookie.com https://player.vimeo.com https://www.loom.com"

// hashSource is the CSP source allowing an inline element whose text is s.
func hashSource(s string) string {
	sum := sha256.Sum256([]byte(s))
	return sumSource(sum[:])
}

func sumSource(sum []byte) string {
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum) + "'"
}

// styleHasher makes the CSP sources of pages' style elements, which start
// with their theme's style sheet (about 30 KB, the same on every page): it
// keeps the SHA-256 state after each sheet, so a render hashes only what
// follows (the site's colours, the page's rules). Made in New; read only.
type styleHasher struct {
	sheets map[string]string      // by theme
	after  map[string]hash.Cloner // by theme: the state after its sheet
}

func newStyleHasher(sheets map[string]string) *styleHasher {
	h := &styleHasher{sheets: sheets, after: map[string]hash.Cloner{}}
	for theme, css := range sheets {
		d := sha256.New()
		d.Write([]byte(css))
		if c, ok := d.(hash.Cloner); ok {
			h.after[theme] = c
		}
	}
	return h
}

// source is the CSP source of a style element holding sheet then rest,
// sheet being theme's style sheet (else it is hashed whole).
func (h *styleHasher) source(theme, sheet, rest string) string {
	if st, ok := h.after[theme]; ok && h.sheets[theme] == sheet {
		if c, err := st.Clone(); err == nil {
			c.Write([]byte(rest))
			return sumSource(c.Sum(nil))
		}
	}
	return hashSource(sheet + rest)
}

// scriptSources allows the page's scripts (copy buttons, results as you
// type, the theme's choice, insights): the same on every page
// (Service.scripts, made once in New).
func scriptSources() string {
	return hashSource(copyScript) + " " + hashSource(searchScript) + " " + hashSource(themeScript) + " " + hashSource(insightsScript)
}

// pagePolicy is the Content-Security-Policy of a page whose scripts
// scriptSources allow (s.scripts, and mermaid's on a page with a diagram)
// and whose style element styleSource allows, whose scripts may connect
// to connectSources ('self', and an API playground's servers), framed only by frameAncestors (a source list:
// sites.FrameAncestors). httpOrigins are http:// origins images come from
// besides the page's own (the public URL and the API's, for file links, in
// local mode: https: covers them otherwise).
func (s *Service) pagePolicy(scriptSources, styleSource, connectSources, frameAncestors string, httpOrigins []string) string {
	img := "'self' https: data:"
	for _, o := range httpOrigins {
		img += " " + o
	}
	return "default-src 'none'; script-src " + scriptSources + "; style-src " + styleSource +
		"; img-src " + img + "; frame-src " + playerOrigins + "; connect-src " + connectSources + "; form-action 'self'; base-uri 'none'; frame-ancestors " + frameAncestors
}

// httpOrigins are the origins of the URLs among raw that are http://
// (https: sources cover the others), once each.
func httpOrigins(raw ...string) []string {
	var out []string
	for _, r := range raw {
		u, err := url.Parse(r)
		if err != nil || u.Scheme != "http" || u.Host == "" || strings.ContainsAny(u.Host, " ;,'") {
			continue
		}
		o := "http://" + strings.ToLower(u.Host)
		dup := false
		for _, x := range out {
			dup = dup || x == o
		}
		if !dup {
			out = append(out, o)
		}
	}
	return out
}

// mermaidSources is the CSP source allowing the mermaid module at path (on
// the page's origin) and the chunks it imports beside it: its directory.
// Characters a source expression cannot hold are percent-encoded.
func mermaidSources(origin, path string) string {
	dir := path[:strings.LastIndex(path, "/")+1]
	return origin + strings.NewReplacer(";", "%3B", ",", "%2C", " ", "%20", "'", "%27").Replace(dir)
}

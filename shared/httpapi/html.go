package httpapi

import "strings"

// The small HTML pages some functions answer (a published site's search
// page, the SAML sign-in's page) are written with these two escapers
// instead of html/template: executing a text/template looks fields and
// methods up by names known only at run time (reflect's MethodByName),
// which turns off the linker's dead-code elimination of methods for the
// whole binary (docs/functions.md, "Method dead-code elimination"). They
// escape as html/template does in those contexts, byte for byte
// (TestHTMLEscapersAnswerAsHTMLTemplate).

// htmlReplacer is html/template's escaping of text and quoted attribute
// values.
var htmlReplacer = strings.NewReplacer("\x00", "\uFFFD", `"`, "&#34;", "&", "&amp;", "'", "&#39;", "+", "&#43;", "<", "&lt;", ">", "&gt;")

// HTMLText escapes s for an element's text (title included) or a quoted
// attribute's value.
func HTMLText(s string) string { return htmlReplacer.Replace(s) }

// HTMLURL escapes s for a quoted URL attribute (href): a URL whose scheme
// is not http, https or mailto becomes "#ZgotmplZ" (so a javascript: URL
// runs nothing); bytes a URL may not hold are percent-encoded, valid
// escapes kept.
func HTMLURL(s string) string {
	if scheme, _, ok := strings.Cut(s, ":"); ok && !strings.Contains(scheme, "/") &&
		!strings.EqualFold(scheme, "http") && !strings.EqualFold(scheme, "https") && !strings.EqualFold(scheme, "mailto") {
		return "#ZgotmplZ"
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', strings.IndexByte("-._~!#$&*+,/:;=?@[]", c) >= 0:
			b.WriteByte(c)
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			b.WriteByte(c)
		default:
			const hex = "0123456789abcdef"
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	return HTMLText(b.String())
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

package infra_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/families"
)

// cdnTemplate is what TestTemplateCDN reads of the CDN's resources.
type cdnTemplate struct {
	CachePolicyConfig struct {
		DefaultTTL int `yaml:"DefaultTTL"`
		MaxTTL     int `yaml:"MaxTTL"`
		Key        struct {
			QueryStrings struct {
				Behavior string `yaml:"QueryStringBehavior"`
			} `yaml:"QueryStringsConfig"`
			Cookies struct {
				Behavior string   `yaml:"CookieBehavior"`
				Names    []string `yaml:"Cookies"`
			} `yaml:"CookiesConfig"`
			Headers struct {
				Names []string `yaml:"Headers"`
			} `yaml:"HeadersConfig"`
		} `yaml:"ParametersInCacheKeyAndForwardedToOrigin"`
	} `yaml:"CachePolicyConfig"`
	DistributionConfig struct {
		CacheBehaviors []struct {
			PathPattern           string   `yaml:"PathPattern"`
			CachePolicyID         any      `yaml:"CachePolicyId"`
			OriginRequestPolicyID any      `yaml:"OriginRequestPolicyId"`
			CachedMethods         []string `yaml:"CachedMethods"`
		} `yaml:"CacheBehaviors"`
	} `yaml:"DistributionConfig"`
	Roles          []any `yaml:"Roles"`
	PolicyDocument struct {
		Statement []struct {
			Effect   string `yaml:"Effect"`
			Action   any    `yaml:"Action"`
			Resource any    `yaml:"Resource"`
		} `yaml:"Statement"`
	} `yaml:"PolicyDocument"`
}

// The CDN (docs/reader.md, "CDN") exists only when CdnOrigin is set; its
// cache policy keys published pages by everything that makes a visitor's
// answer differ; the reader's routes use it; and exactly the functions
// that link the CloudFront client (cdnFunctions) know the distribution and
// may invalidate it, nothing else.
func TestTemplateCDN(t *testing.T) {
	tpl := readTemplate(t)
	if p, ok := tpl.Parameters["CdnOrigin"]; !ok || p.Default != "" {
		t.Errorf("parameter CdnOrigin: %+v (off by default)", p)
	}
	for _, id := range []string{"ReaderCachePolicy", "ReaderOriginRequestPolicy", "ReaderDistribution", "CdnInvalidationPolicy"} {
		if r, ok := tpl.Resources[id]; !ok || r.Condition != "HasCdn" {
			t.Errorf("%s: %+v, want a resource under the condition HasCdn", id, r)
		}
	}
	cp := decode[cdnTemplate](t, "ReaderCachePolicy", tpl.Resources["ReaderCachePolicy"].Properties).CachePolicyConfig
	key := cp.Key
	// The reader's cookies (shared/reader/readerhttp: a share link's key, a
	// visitor's token, a member's preview).
	if cp.DefaultTTL != 0 || cp.MaxTTL > 3600 || key.QueryStrings.Behavior != "all" || key.Cookies.Behavior != "whitelist" ||
		!slices.Equal(slices.Sorted(slices.Values(key.Cookies.Names)), []string{"galley_preview", "galley_share", "galley_visitor"}) ||
		!slices.Contains(key.Headers.Names, "Authorization") || !slices.Contains(key.Headers.Names, "X-Forwarded-Host") {
		t.Errorf("cache policy %+v", cp)
	}
	dist := decode[cdnTemplate](t, "ReaderDistribution", tpl.Resources["ReaderDistribution"].Properties).DistributionConfig
	var patterns []string
	for _, b := range dist.CacheBehaviors {
		patterns = append(patterns, b.PathPattern)
		if anyRef(b.CachePolicyID) != "ReaderCachePolicy" || anyRef(b.OriginRequestPolicyID) != "ReaderOriginRequestPolicy" ||
			!slices.Equal(b.CachedMethods, []string{"GET", "HEAD"}) {
			t.Errorf("behaviour %s: %+v", b.PathPattern, b)
		}
	}
	if !slices.Equal(patterns, []string{"/sites/*", "/~proxy/*"}) {
		t.Errorf("cached paths %v, want the reader's routes", patterns)
	}

	logical := map[string]string{}
	for _, f := range families.All() {
		logical[f.Function] = f.Name
	}
	for _, w := range app.Workers() {
		logical[w.Function] = w.Name
	}
	var withVar []string
	for id, r := range tpl.Resources {
		if r.Type != "AWS::Serverless::Function" {
			continue
		}
		env := decode[struct {
			Environment struct {
				Variables map[string]any `yaml:"Variables"`
			} `yaml:"Environment"`
		}](t, id, r.Properties)
		if _, ok := env.Environment.Variables["CDN_DISTRIBUTION_ID"]; ok {
			withVar = append(withVar, logical[id])
		}
	}
	want := slices.Sorted(slices.Values(cdnFunctions))
	if slices.Sort(withVar); !slices.Equal(withVar, want) {
		t.Errorf("functions with CDN_DISTRIBUTION_ID: %v, want %v", withVar, want)
	}
	pol := decode[cdnTemplate](t, "CdnInvalidationPolicy", tpl.Resources["CdnInvalidationPolicy"].Properties)
	var roles []string
	for _, r := range pol.Roles {
		roles = append(roles, logical[strings.TrimSuffix(anyRef(r), "Role")])
	}
	if slices.Sort(roles); !slices.Equal(roles, want) {
		t.Errorf("roles that may invalidate: %v, want %v", roles, want)
	}
	st := pol.PolicyDocument.Statement
	if len(st) != 1 || st[0].Effect != "Allow" || st[0].Action != "cloudfront:CreateInvalidation" ||
		!strings.HasSuffix(anyString(st[0].Resource), ":distribution/${ReaderDistribution}") {
		t.Errorf("invalidation policy %+v, want CreateInvalidation on the distribution only", st)
	}
}

// anyRef is the logical id a decoded !Ref (or {Ref: id}) names.
func anyRef(v any) string {
	switch x := v.(type) {
	case map[string]any:
		s, _ := x["Ref"].(string)
		return s
	case string:
		return x
	}
	return ""
}

package readerhttp_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudfront"
	"github.com/aws/aws-sdk-go-v2/service/cloudfront/types"

	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/wire/siteswire"
	"github.com/galleydocs/galley/shared/cdn/cloudfrontcdn"
	"github.com/galleydocs/galley/shared/reader/readerhttp"
	"github.com/galleydocs/galley/shared/testkit"
)

// Public answers are kept by browsers and the CDN; anything that depends
// on who visits (a share link's key, a visitor's token, a member's
// preview) by neither; errors by nobody.
func TestCacheControlByAudience(t *testing.T) {
	public := standardSite(t, nil)
	for _, p := range []string{"/", "/blocks", "/blocks.md", "/llms.txt", "/sitemap.xml", "/robots.txt"} {
		_, res := public.body(t, http.StatusOK, public.base+p)
		if cc := res.Header.Get("Cache-Control"); cc != readerhttp.PublicCacheControl {
			t.Errorf("public %s: Cache-Control %q", p, cc)
		}
	}
	_, res := public.body(t, http.StatusOK, public.base+"/blocks")
	if again := public.get(t, public.base+"/blocks", "If-None-Match", res.Header.Get("ETag")); again.StatusCode != http.StatusNotModified ||
		again.Header.Get("Cache-Control") != readerhttp.PublicCacheControl {
		t.Errorf("revalidated: %d, Cache-Control %q", again.StatusCode, again.Header.Get("Cache-Control"))
	}
	if _, res := public.body(t, http.StatusNotFound, public.base+"/no-such-page"); res.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("404: Cache-Control %q", res.Header.Get("Cache-Control"))
	}
	// A member's preview of the public site: the same URLs, privately.
	u := public.As(t, "read").Expect(http.StatusOK, "GET", public.sitePth+"/publishing/preview", nil).Map(t)["url"].(string)
	p, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	_, res = public.body(t, http.StatusOK, p.RequestURI())
	private(t, "a member's preview", res)
	var preview *http.Cookie
	for _, c := range res.Cookies() {
		if c.Name == "galley_preview" {
			preview = c
		}
	}
	if preview == nil {
		t.Fatal("no preview cookie")
	}
	_, res = public.getWith(t, http.StatusOK, public.base+"/blocks", preview)
	private(t, "a member's preview by its cookie", res)

	unlisted := standardSite(t, map[string]any{"visibility": "unlisted"})
	if _, res := unlisted.body(t, http.StatusOK, unlisted.base+"/blocks"); res.Header.Get("Cache-Control") != readerhttp.PublicCacheControl {
		t.Errorf("unlisted: Cache-Control %q", res.Header.Get("Cache-Control"))
	}

	shared := standardSite(t, map[string]any{"visibility": "share-link"})
	l := shared.As(t, "admin").Expect(http.StatusCreated, "POST", shared.sitePth+"/share-links", map[string]any{"name": "Partners"}).Map(t)
	_, key, _ := strings.Cut(l["urls"].(map[string]any)["published"].(string), "?shareKey=")
	_, res = shared.body(t, http.StatusOK, shared.base+"/blocks?shareKey="+key)
	private(t, "a share link's key in the URL", res)
	_, res = shared.getWith(t, http.StatusOK, shared.base+"/blocks", &http.Cookie{Name: "galley_share", Value: key})
	private(t, "a share link's key in its cookie", res)

	auth := standardSite(t, map[string]any{"visibility": "visitor-auth"})
	tok := auth.visitorToken(t, map[string]any{"sub": "v1"})
	_, res = auth.body(t, http.StatusOK, auth.base+"/blocks?jwt_token="+url.QueryEscape(tok))
	private(t, "a visitor token in the URL", res)
	_, res = auth.getWith(t, http.StatusOK, auth.base+"/blocks.md", &http.Cookie{Name: "galley_visitor", Value: tok})
	private(t, "a visitor token in its cookie", res)
}

func private(t *testing.T, what string, res *http.Response) {
	t.Helper()
	if cc := res.Header.Get("Cache-Control"); cc != readerhttp.PrivateCacheControl {
		t.Errorf("%s: Cache-Control %q, want %q", what, cc, readerhttp.PrivateCacheControl)
	}
}

// Two instances of the reader (two processes: their own services, caches
// and templates) over the same data give a page the same ETag, so a CDN
// or a browser revalidating at another instance gets a 304: the ETag
// hashes content, not process state.
func TestETagsAgreeAcrossInstances(t *testing.T) {
	f := standardSite(t, nil)
	other := f.Serve(t, []string{"reader"}, func(*app.Root) {}).Handler()
	for _, p := range []string{"/", "/blocks", "/blocks/child-page.md", "/llms.txt", "/sitemap.xml"} {
		_, res := f.body(t, http.StatusOK, f.base+p)
		etag := res.Header.Get("ETag")
		r := httptestRequest(f.base+p, "")
		w := serve(other, r)
		if w.StatusCode != http.StatusOK || w.Header.Get("ETag") != etag || etag == "" {
			t.Errorf("%s: the other instance answers %d, ETag %q; the first %q", p, w.StatusCode, w.Header.Get("ETag"), etag)
		}
		if w := serve(other, httptestRequest(f.base+p, etag)); w.StatusCode != http.StatusNotModified {
			t.Errorf("%s: the other instance answers the first's ETag with %d", p, w.StatusCode)
		}
	}
}

// cloudFront is a distribution on moto's CloudFront and the client reading
// its invalidations.
type cloudFront struct {
	client *cloudfront.Client
	id     string
}

func newCloudFront(t *testing.T) *cloudFront {
	t.Helper()
	client := cloudfront.NewFromConfig(testkit.Moto().AWSConfig(t))
	origin := "api.test"
	out, err := client.CreateDistribution(context.Background(), &cloudfront.CreateDistributionInput{DistributionConfig: &types.DistributionConfig{
		CallerReference: aws.String(t.Name()), Comment: aws.String("reader"), Enabled: aws.Bool(true),
		Origins: &types.Origins{Quantity: aws.Int32(1), Items: []types.Origin{{Id: aws.String("api"), DomainName: aws.String(origin),
			CustomOriginConfig: &types.CustomOriginConfig{HTTPPort: aws.Int32(80), HTTPSPort: aws.Int32(443), OriginProtocolPolicy: types.OriginProtocolPolicyHttpsOnly}}}},
		DefaultCacheBehavior: &types.DefaultCacheBehavior{TargetOriginId: aws.String("api"), ViewerProtocolPolicy: types.ViewerProtocolPolicyRedirectToHttps,
			CachePolicyId: aws.String("658327ea-f89d-4fab-a63d-7e88639e58f6")},
	}})
	if err != nil {
		t.Fatalf("create distribution: %v", err)
	}
	return &cloudFront{client: client, id: aws.ToString(out.Distribution.Id)}
}

// invalidation is one invalidation's caller reference and paths.
type invalidation struct {
	ref   string
	paths []string
}

// invalidations are the distribution's invalidations, oldest first.
func (c *cloudFront) invalidations(t *testing.T) []invalidation {
	t.Helper()
	ctx := context.Background()
	list, err := c.client.ListInvalidations(ctx, &cloudfront.ListInvalidationsInput{DistributionId: aws.String(c.id)})
	if err != nil {
		t.Fatalf("list invalidations: %v", err)
	}
	var out []invalidation
	for _, s := range list.InvalidationList.Items {
		got, err := c.client.GetInvalidation(ctx, &cloudfront.GetInvalidationInput{DistributionId: aws.String(c.id), Id: s.Id})
		if err != nil {
			t.Fatalf("get invalidation: %v", err)
		}
		b := got.Invalidation.InvalidationBatch
		paths := slices.Clone(b.Paths.Items)
		slices.Sort(paths)
		out = append(out, invalidation{ref: aws.ToString(b.CallerReference), paths: paths})
	}
	return out
}

// since checks that the invalidations made after the first n are want
// (paths in any order) and returns their count.
func (c *cloudFront) since(t *testing.T, n int, what string, want ...invalidation) int {
	t.Helper()
	all := c.invalidations(t)
	got := all[n:]
	if len(got) != len(want) {
		t.Fatalf("%s: %d invalidations, want %d: %+v", what, len(got), len(want), got)
	}
	for i := range want {
		slices.Sort(want[i].paths)
		if got[i].ref != want[i].ref || !slices.Equal(got[i].paths, want[i].paths) {
			t.Errorf("%s: invalidation\n  %s %v\nwant\n  %s %v", what, got[i].ref, got[i].paths, want[i].ref, want[i].paths)
		}
	}
	return len(all)
}

// Publishing a site invalidates its URLs on the CDN (moto's CloudFront);
// merging into a published space invalidates the site space's pages and
// the site's root files; the customization, the whole site; unpublishing,
// the whole site again. Changes that no visitor sees (a site never
// published, a space no published site shows) ask nothing.
func TestPublishingAndMergingInvalidateTheCDN(t *testing.T) {
	cf := newCloudFront(t)
	k := testkit.New(t)
	k.Deps.CDN = cloudfrontcdn.New(cf.client, cf.id)
	// Organizations' hostnames publish under /~proxy/<basename> too.
	k.Deps.SitesDomain = "sites.test"
	f := newFixtureOn(t, k)
	f.space, f.pages = f.newSpace(t, "Guide", page("intro", "", "# Introduction\n\nWelcome.\n"))
	n := cf.since(t, 0, "a space no published site shows")

	f.publish(t, "Acme Docs", map[string]any{"basename": "docs"})
	siteID := f.sitePth[strings.LastIndex(f.sitePth, "/")+1:]
	byName, byID, byHost := "/sites/"+f.Org.ID+"/docs", "/sites/"+siteID, "/~proxy/docs"
	whole := []string{byName, byName + "/*", byID, byID + "/*", byHost, byHost + "/*"}
	published := f.As(t, "admin").Expect(http.StatusOK, "GET", f.sitePth, nil).Map(t)
	if published["published"] != true {
		t.Fatalf("site %v", published)
	}
	all := cf.invalidations(t)
	if len(all) != n+1 || !strings.HasPrefix(all[n].ref, "site-"+siteID+"-") {
		t.Fatalf("publishing: %+v", all[n:])
	}
	n = cf.since(t, n, "publishing", invalidation{all[n].ref, whole})

	// A merge into the site's only space: it is read at the site's root.
	c := f.As(t, "admin")
	rev := f.merge(t, f.space, page("more", "", "# More\n\nWords.\n"))
	rootFiles := func(roots ...string) []string {
		var out []string
		for _, r := range roots {
			out = append(out, r+"/sitemap.xml", r+"/llms.txt", r+"/llms-full.txt")
		}
		return out
	}
	n = cf.since(t, n, "a merge into the default site space", invalidation{"space-" + f.space + "-" + rev, append(slices.Clone(whole), rootFiles(byName, byID, byHost)...)})

	// A section of another space: a merge there invalidates that section.
	extra, _ := f.newSpace(t, "Extra", page("e", "", "# Extra\n\nMore.\n"))
	n = cf.since(t, n, "a space of no published site")
	// Its first section holds both spaces (the site's first section takes
	// the site spaces it had): Extra is a site space of the default
	// section, read under the section's path and under the site's root.
	c.Expect(http.StatusCreated, "POST", f.sitePth+"/sections", map[string]any{"spaceId": extra, "title": "More"})
	all = cf.invalidations(t)
	if len(all) != n+1 {
		t.Fatalf("adding a section: %+v", all[n:])
	}
	n = cf.since(t, n, "adding a section", invalidation{all[n].ref, whole})
	rev = f.merge(t, extra, page("e2", "", "# Extra two\n\nMore.\n"))
	var paths []string
	for _, root := range []string{byName, byID, byHost} {
		for _, p := range []string{"/more/extra", "/extra"} {
			paths = append(paths, root+p, root+p+"/*")
		}
	}
	n = cf.since(t, n, "a merge into a section's other space", invalidation{"space-" + extra + "-" + rev, append(paths, rootFiles(byName, byID, byHost)...)})

	// The same change told again asks the same invalidation (CloudFront
	// answers a known caller reference with the first one).
	if err := siteswire.Service(f.Root).SpaceChanged(context.Background(), f.Org.ID, extra, rev); err != nil {
		t.Fatal(err)
	}
	all = cf.invalidations(t)
	if last := all[len(all)-1]; last.ref != all[n-1].ref || !slices.Equal(last.paths, all[n-1].paths) {
		t.Errorf("the same change told twice: %+v then %+v", all[n-1], last)
	}
	n = len(all)

	cur := c.Expect(http.StatusOK, "GET", f.sitePth+"/customization", nil).Map(t)
	cur["title"] = "Renamed"
	c.Expect(http.StatusOK, "PUT", f.sitePth+"/customization", cur)
	all = cf.invalidations(t)
	if len(all) != n+1 || !strings.HasPrefix(all[n].ref, "customization-"+siteID+"-") {
		t.Fatalf("customization: %+v", all[n:])
	}
	n = cf.since(t, n, "customization", invalidation{all[n].ref, whole})

	// A proxy origin: the site's URLs before and after the change.
	c.Expect(http.StatusOK, "PATCH", f.sitePth, map[string]any{"proxy": "example.com/guide"})
	all = cf.invalidations(t)
	if len(all) != n+1 {
		t.Fatalf("a proxy origin: %+v", all[n:])
	}
	n = cf.since(t, n, "a proxy origin", invalidation{all[n].ref, append(slices.Clone(whole), "/~proxy/guide", "/~proxy/guide/*")})
	whole = append(whole, "/~proxy/guide", "/~proxy/guide/*")

	c.Expect(http.StatusOK, "POST", f.sitePth+"/unpublish", nil)
	all = cf.invalidations(t)
	if len(all) != n+1 {
		t.Fatalf("unpublishing: %+v", all[n:])
	}
	n = cf.since(t, n, "unpublishing", invalidation{all[n].ref, whole})
	// Unpublished: nothing is kept, nothing to invalidate.
	f.merge(t, f.space, page("late", "", "# Late\n\nWords.\n"))
	c.Expect(http.StatusOK, "PATCH", f.sitePth, map[string]any{"title": "Quiet"})
	cf.since(t, n, "changes of an unpublished site")
}

// merge merges a change request of changes into space and returns the
// space's new head revision.
func (f *fixture) merge(t *testing.T, space string, changes ...map[string]any) string {
	t.Helper()
	c := f.As(t, "admin")
	crs := "/v1/spaces/" + space + "/change-requests"
	n := c.Expect(http.StatusCreated, "POST", crs, map[string]any{"subject": "more"}).Map(t)["number"]
	cr := crs + "/" + jsonNumber(n)
	c.Expect(http.StatusOK, "POST", cr+"/content?compat=false", map[string]any{"changes": changes})
	c.Expect(http.StatusOK, "POST", cr+"/merge", nil)
	return c.Expect(http.StatusOK, "GET", "/v1/spaces/"+space, nil).Map(t)["revision"].(string)
}

// httptestRequest is a visitor's GET of a published path, with the
// validator it holds ("" for none).
func httptestRequest(path, ifNoneMatch string) *http.Request {
	r := httptest.NewRequest(http.MethodGet, "https://app.test"+path, nil)
	if ifNoneMatch != "" {
		r.Header.Set("If-None-Match", ifNoneMatch)
	}
	return r
}

// serve answers r with h.
func serve(h http.Handler, r *http.Request) *http.Response {
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w.Result()
}

package keys

import (
	"os"
	"strings"
	"testing"
)

// render replaces <placeholders> of a documented key with sample values.
func render(pattern string) string {
	r := strings.NewReplacer("<userId>", "u1", "<orgId>", "o1", "<email>", "a@b.c", "<sha256(secret)>", "h1",
		"<domain>", "b.c", "<teamId>", "t1", "<inviteId>", "i1", "<spaceId>", "s1", "<revisionId>", "r1", "<changeRequestId>", "c1", "<status>", "open", "<number>", "0000000007",
		"<siteId>", "si1", "<basename>", "docs", "<state>", "live", "<kind>", "E", "<source>", "/old", "<redirectId>", "rd1", "<origin>", "docs.example.com/help",
		"<commentId>", "cm1", "<replyId>", "rp1", "<reviewId>", "rv1", "<tokenId>", "tk1", "<pageId>", "p1", " (comments on a page only)", "",
		"<day>", "2026-01-01", "<month>", "2026-01", "<eventType>", "page_view", "<counterId>", "k1", "<chunk>", "0", "<marker>", "m1", "<joinedAt>", "2026-01-01T00:00:00.000Z", "<updatedAt>", "2026-01-02T00:00:00.000000000Z", " (the creator's copy only)", "", " (absent while deleted)", "",
		"<name>", "audience", "<fieldId>", "f1", "<lowerUserName>", "ann@example.com",
		"<specId>", "oa1", "<slug>", "petstore", "<versionId>", "v1", "<providerId>", "sp1", "<translationId>", "tr1", "<webhookId>", "wh1", "<deliveryId>", "dl1", "<queuedAt>", "2026-01-02T00:00:00.000000000Z", " (not attempted yet only)", "", "<expiresAt>", "2026-01-01T00:10:00.000Z", "<REQUEST|ASSERTION|OIDCSTATE>", "REQUEST", "<messageId>", "id-1", "<eventId>", "ev1", "<requestHash>", "h1",
		"<collectionId>", "c1", "<parentId>", "c0", "<path>", "a0/a1", "<position>", "a1", "<USER|TEAM>", "USER", "<principalId>", "u1",
		" (live spaces in a collection only)", "", " (at the top level: ORG#<orgId>#TOP#COLLECTIONS / <position>)", "")
	return r.Replace(pattern)
}

func entity(t *testing.T, name string) Entity {
	for _, e := range Design() {
		if e.Name == name {
			return e
		}
	}
	t.Fatalf("no entity %q in Design", name)
	return Entity{}
}

func TestFunctionsMatchDesign(t *testing.T) {
	primary := map[string]Key{
		"Collection":             Collection("c1"),
		"Entry at the top level": ChildEntry("o1", "", "a1"),
		"Entry in a collection":  ChildEntry("o1", "c1", "a1"),
		"Grant on a space":       Grant("space", "s1", "user", "u1"),
		"Grant on a collection":  Grant("collection", "c1", "user", "u1"),
		"Grant on a site":        Grant("site", "si1", "user", "u1"),
		"Custom field":           CustomField("o1", "audience"),
		"Custom field value":     CustomFieldValue("s1", "f1"),

		"Instance secret":       InstanceSecret(),
		"Instance admin marker": InstanceAdmin(),
		"User":                  User("u1"),
		"Email reservation":     Email("a@b.c"),
		"API token":             Token("h1"),
		"API token reference":   TokenRef("u1", "tk1"),
		"Organization":          Org("o1"),
		"Member":                Member("o1", "u1"),
		"Email domain":          EmailDomain("b.c", "o1"),
		"Team":                  Team("o1", "t1"),
		"Team member":           TeamMember("o1", "t1", "u1"),
		"Invite link":           Invite("o1", "i1"),
		"Space":                 Space("s1"),
		"Revision":              Revision("s1", "r1"),
	}
	primary["Change request"] = ChangeRequest("s1", "c1")
	primary["SAML provider"] = SAMLProvider("o1", "sp1")
	primary["OIDC provider"] = OIDCProvider("o1", "sp1")
	primary["Translation settings"] = Translation("o1", "tr1")
	primary["Webhook endpoint"] = Webhook("o1", "wh1")
	primary["Webhook delivery"] = WebhookDelivery("wh1", "dl1")
	primary["SAML service-provider key"] = SAMLServiceProvider()
	primary["Audit event"] = AuditEvent("o1", "ev1")
	primary["Idempotent request"] = IdempotentRequest("h1")
	primary["Used SAML id"] = SAMLUsed("o1", "2026-01-01T00:10:00.000Z", "REQUEST", "id-1")
	primary["Change request number"] = ChangeRequestNumber("s1", 7)
	primary["Change request contributor copy"] = ChangeRequestContributor("s1", "u1", "c1")
	primary["Change request review"] = ChangeRequestReview("s1", "c1", "rv1")
	primary["Review request"] = ReviewRequest("s1", "c1", "u1")
	primary["Site"] = Site("si1")
	primary["Site adaptive schema"] = SiteAdaptiveSchema("si1")
	primary["Site basename reservation"] = SiteBasename("o1", "docs")
	primary["Site customization"] = SiteCustomization("si1")
	primary["Site publishing auth"] = SitePublishingAuth("si1")
	primary["Site origin reservation"] = SiteOrigin("docs.example.com/help")
	primary["Site redirect"] = SiteRedirect("si1", "live", "E", "/old")
	primary["Site redirect id"] = SiteRedirectID("si1", "rd1")
	primary["Space comment"] = Comment(CommentThread("s1", ""), "cm1")
	primary["Space comment reply"] = CommentReply(CommentThread("s1", ""), "cm1", "rp1")
	primary["Change request comment"] = Comment(CommentThread("s1", "c1"), "cm1")
	primary["Change request comment reply"] = CommentReply(CommentThread("s1", "c1"), "cm1", "rp1")
	primary["Space commenter"] = Commenter(CommentThread("s1", ""), "u1")
	primary["Change request commenter"] = Commenter(CommentThread("s1", "c1"), "u1")
	primary["OpenAPI spec"] = OpenAPISpec("o1", "petstore")
	primary["OpenAPI spec version"] = OpenAPIVersion("oa1", "v1")
	primary["Git sync state"] = GitSync("s1")
	primary["Site Git sync state"] = SiteGitSync("si1")
	primary["Space polled by Git Sync"] = GitPolled("s1")
	primary["Insights counter"] = InsightsCounter("si1", "2026-01-01", "k1")
	primary["Insights month roll-up"] = InsightsMonthCounter("si1", "2026-01", "k1")
	primary["Insights type total"] = InsightsTotal("si1", "2026-01-01", "page_view")
	primary["Insights day pack"] = InsightsPack("si1", "2026-01-01", "page_view", 0)
	primary["Insights marker days"] = InsightsDays("si1")
	primary["Insights marker"] = InsightsMarker("si1", "2026-01-01", "m1")
	primary["Insights salt"] = InsightsSalt("2026-01-01")
	primary["SCIM token"] = SCIMToken("h1")
	primary["SCIM token reference"] = SCIMTokenRef("o1", "tk1")
	primary["SCIM user"] = SCIMUser("o1", "u1")
	primary["SCIM userName"] = SCIMUserName("o1", "ann@example.com")
	primary["SCIM group"] = SCIMGroup("o1", "t1")
	if len(primary) != len(Design()) {
		t.Fatalf("%d entities checked, %d designed", len(primary), len(Design()))
	}
	for name, k := range primary {
		e := entity(t, name)
		if got, want := k, (Key{render(e.PK), render(e.SK)}); got != want {
			t.Errorf("%s: key %v, design says %v", name, got, want)
		}
	}
	index := map[string][2]IndexKey{
		"Member":      {MemberByUser("o1", "u1"), MemberByJoined("o1", "2026-01-01T00:00:00.000Z", "u1")},
		"Team member": {TeamMemberByUser("o1", "u1", "t1")},
		"Space":       {SpaceInOrg("o1", "s1"), SpaceInCollection("c1", "a1")},
	}
	index["Collection"] = [2]IndexKey{CollectionInOrg("o1", "a0/a1"), CollectionAmongSiblings("o1", "c0", "a1")}
	index["Site"] = [2]IndexKey{SiteInOrg("o1", "si1")}
	index["User"] = [2]IndexKey{UserInList("u1")}
	index["Audit event"] = [2]IndexKey{AuditEventByExpiry("2026-01-01T00:10:00.000Z", "o1", "ev1")}
	index["Idempotent request"] = [2]IndexKey{IdempotentRequestByExpiry("2026-01-01T00:10:00.000Z", "h1")}
	index["Grant on a space"] = [2]IndexKey{GrantByPrincipal("o1", "user", "u1", "space", "s1")}
	index["Grant on a collection"] = [2]IndexKey{GrantByPrincipal("o1", "user", "u1", "collection", "c1")}
	index["Grant on a site"] = [2]IndexKey{GrantByPrincipal("o1", "user", "u1", "site", "si1")}
	index["Custom field value"] = [2]IndexKey{CustomFieldValueByField("f1", "s1")}
	index["Webhook delivery"] = [2]IndexKey{WebhookPendingInOrg("o1", "2026-01-02T00:00:00.000000000Z", "dl1")}
	if k := CollectionAmongSiblings("o1", "", "a1"); k.PK != "ORG#o1#TOP#COLLECTIONS" {
		t.Errorf("top-level collections: GSI2 partition %q", k.PK)
	}
	index["Change request"] = [2]IndexKey{ChangeRequestByStatus("s1", "open", 7), ChangeRequestInOrg("o1", "open", "2026-01-02T00:00:00.000000000Z", "c1")}
	index["Change request contributor copy"] = [2]IndexKey{ContributorByStatus("s1", "u1", "open", 7), ChangeRequestCreatedInOrg("o1", "open", "c1")}
	for name, cr := range map[string]string{"Space comment": "", "Change request comment": "c1"} {
		thread := CommentThread("s1", cr)
		index[name] = [2]IndexKey{CommentByStatus(thread, "open", "cm1"), CommentByPage(thread, "p1", "cm1")}
	}
	for _, e := range Design() {
		got := index[e.Name]
		for i, designed := range []string{e.GSI1, e.GSI2} {
			want := ""
			if designed != "" {
				want = render(designed)
			}
			have := ""
			if got[i] != (IndexKey{}) {
				have = got[i].PK + " / " + got[i].SK
			}
			if have != want {
				t.Errorf("%s GSI%d: functions give %q, design says %q", e.Name, i+1, have, want)
			}
		}
	}
}

// TestDocMatchesDesign keeps docs/storage.md in step; run with
// UPDATE_DOCS=1 to rewrite its generated part.
func TestDocMatchesDesign(t *testing.T) {
	const path = "../../docs/storage.md"
	const begin, end = "<!-- keys:begin -->\n", "<!-- keys:end -->"
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	i, j := strings.Index(doc, begin), strings.Index(doc, end)
	if i < 0 || j < i {
		t.Fatalf("%s lacks the %q ... %q markers", path, begin, end)
	}
	want := doc[:i+len(begin)] + Markdown() + doc[j:]
	if doc == want {
		return
	}
	if os.Getenv("UPDATE_DOCS") == "1" {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Fatalf("%s is out of date with keys.Design(); run UPDATE_DOCS=1 go test ./shared/keys", path)
}

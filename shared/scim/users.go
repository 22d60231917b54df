package scim

import (
	"context"
	"encoding/json"
	"errors"
	"net/mail"
	"strings"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/orgs"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
)

// NewMemberRole is the organization role of a member SCIM creates
// (docs/scim.md): the least that reads the organization's content.
const NewMemberRole = model.RoleRead

// Page is a list request's paging: startIndex (1-based) and count.
type Page struct {
	StartIndex, Count int
}

// MaxCount bounds count (ServiceProviderConfig's filter.maxResults).
const MaxCount = 200

func (p Page) window(n int) (int, int) {
	start := max(p.StartIndex, 1)
	count := p.Count
	if count < 0 {
		count = 0
	}
	if count == 0 && p.Count != 0 || count > MaxCount {
		count = MaxCount
	}
	from := min(start-1, n)
	to := min(from+count, n)
	return from, to
}

func list[T any](items []T, p Page) ListResponse[T] {
	from, to := p.window(len(items))
	return ListResponse[T]{Schemas: []string{ListSchema}, TotalResults: len(items), StartIndex: max(p.StartIndex, 1), ItemsPerPage: to - from, Resources: append([]T{}, items[from:to]...)}
}

// scimUsers reads what SCIM keeps of the organization's members, by user id.
func (s *Service) scimUsers(ctx context.Context, orgID string) (map[string]model.SCIMUser, error) {
	return keptAll(ctx, s.d.Store, orgID, keys.SCIMUserPrefix, func(r model.SCIMUser) string { return r.UserID })
}

func (s *Service) teamTitles(ctx context.Context, p *orgs.Provisioner) (map[string]string, error) {
	ts, err := p.Teams(ctx)
	out := make(map[string]string, len(ts))
	for _, t := range ts {
		out[t.ID] = t.Title
	}
	return out, err
}

// userResource renders a member with what SCIM keeps of them.
func userResource(sc Scope, mu orgs.MemberWithUser, r *model.SCIMUser, teams []string, titles map[string]string) User {
	u := User{Schemas: []string{UserSchema}, ID: mu.User.ID, UserName: mu.User.Email, DisplayName: mu.User.DisplayName,
		Active: !mu.Member.Disabled, Meta: Meta{ResourceType: "User", Created: mu.Member.JoinedAt, LastModified: mu.Member.JoinedAt, Location: sc.Base + "/Users/" + mu.User.ID}}
	if r != nil {
		u.UserName, u.ExternalID, u.DisplayName, u.Name, u.Emails = r.UserName, r.ExternalID, r.DisplayName, r.Name, r.Emails
		u.Meta.LastModified = r.UpdatedAt
	} else {
		primary := true
		u.Emails = []model.SCIMEmail{{Value: mu.User.Email, Primary: &primary}}
	}
	for _, id := range teams {
		if title, ok := titles[id]; ok {
			u.Groups = append(u.Groups, Ref{Value: id, Ref: sc.Base + "/Groups/" + id, Display: title, Type: "direct"})
		}
	}
	return u
}

// ListUsers lists the organization's members as Users, filtered by
// `userName eq`, `externalId eq` or `id eq` (ignoring case, as userName's
// caseExact false says), in join order. Organizations hold at most a few
// thousand members: the list is made in memory.
func (s *Service) ListUsers(ctx context.Context, sc Scope, filterQ string, pg Page) (ListResponse[User], error) {
	f, err := parseFilter(filterQ, "username", "externalid", "id")
	if err != nil {
		return ListResponse[User]{}, err
	}
	p := s.provisioner(sc)
	mus, err := p.Members(ctx)
	if err != nil {
		return ListResponse[User]{}, err
	}
	recs, err := s.scimUsers(ctx, sc.OrgID)
	if err != nil {
		return ListResponse[User]{}, err
	}
	titles, err := s.teamTitles(ctx, p)
	if err != nil {
		return ListResponse[User]{}, err
	}
	out := []User{}
	for _, mu := range mus {
		var rec *model.SCIMUser
		if r, ok := recs[mu.User.ID]; ok {
			rec = &r
		}
		teams := mu.Member.TeamIDs
		if len(teams) != mu.Member.Teams {
			if teams, err = p.TeamsOf(ctx, mu.User.ID); err != nil {
				return ListResponse[User]{}, err
			}
		}
		u := userResource(sc, mu, rec, teams, titles)
		if f != nil {
			got := map[string]string{"username": u.UserName, "externalid": u.ExternalID, "id": u.ID}[f.attr]
			if !strings.EqualFold(got, f.value) {
				continue
			}
		}
		out = append(out, u)
	}
	return list(out, pg), nil
}

// GetUser returns one member as a User.
func (s *Service) GetUser(ctx context.Context, sc Scope, userID string) (User, error) {
	p := s.provisioner(sc)
	mu, err := p.Member(ctx, userID)
	if apperr.Is(err, apperr.NotFound) {
		return User{}, apperr.NotFoundf("user %s not found", userID)
	}
	if err != nil {
		return User{}, err
	}
	rec, _, err := kept[model.SCIMUser](ctx, s.d.Store, keys.SCIMUser(sc.OrgID, userID))
	if err != nil {
		return User{}, err
	}
	titles, err := s.teamTitles(ctx, p)
	if err != nil {
		return User{}, err
	}
	teams, err := p.TeamsOf(ctx, userID)
	if err != nil {
		return User{}, err
	}
	return userResource(sc, mu, rec, teams, titles), nil
}

// checkUser validates a User given by a request and returns the email
// address of its Galley user: userName when it is an address, else its
// primary (or first) email.
func checkUser(in userInput) (string, error) {
	in.UserName = strings.TrimSpace(in.UserName)
	if in.UserName == "" || len(in.UserName) > 320 {
		return "", invalidValue("userName is required (1 to 320 characters)")
	}
	candidates := []string{in.UserName}
	for _, e := range in.Emails {
		if e.Primary != nil && *e.Primary {
			candidates = append(candidates, e.Value)
		}
	}
	for _, e := range in.Emails {
		candidates = append(candidates, e.Value)
	}
	for _, c := range candidates {
		c = ids.NormalizeEmail(c)
		if a, err := mail.ParseAddress(c); err == nil && a.Address == c && len(c) <= 320 {
			return c, nil
		}
	}
	return "", invalidValue("userName or an email must be an email address (a Galley user is an email address)")
}

// displayName is the name a User gives its Galley user.
func displayName(in userInput) string {
	if n := strings.TrimSpace(in.DisplayName); n != "" {
		return n
	}
	if in.Name != nil {
		if n := strings.TrimSpace(in.Name.Formatted); n != "" {
			return n
		}
		return strings.TrimSpace(in.Name.GivenName + " " + in.Name.FamilyName)
	}
	return ""
}

// uniqueUserName returns a uniqueness Conflict when another member of the
// organization has userName, read from the members: it catches the members
// SCIM never wrote (their userName is their email). The claims (claim)
// make it hold under concurrent requests.
func (s *Service) uniqueUserName(ctx context.Context, sc Scope, userName, self string) error {
	l, err := s.ListUsers(ctx, sc, "userName eq "+quote(userName), Page{Count: MaxCount})
	if err != nil {
		return err
	}
	for _, u := range l.Resources {
		if u.ID != self {
			return scimErr(apperr.Conflict, "uniqueness", "userName %s is taken by user %s", userName, u.ID)
		}
	}
	return nil
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// CreateUser provisions a member: the Galley user with the User's email
// (found, or created without a token), a member of role NewMemberRole
// unless they are one already, and what SCIM keeps of them. A userName
// another member has is a uniqueness Conflict (409).
func (s *Service) CreateUser(ctx context.Context, sc Scope, body []byte) (User, error) {
	var in userInput
	if err := decode(body, &in); err != nil {
		return User{}, err
	}
	email, err := checkUser(in)
	if err != nil {
		return User{}, err
	}
	if err := s.uniqueUserName(ctx, sc, in.UserName, ""); err != nil {
		return User{}, err
	}
	u, err := s.users.FindOrProvision(ctx, email, displayName(in))
	if err != nil {
		return User{}, err
	}
	// A record left by a member removed through the API is replaced (its
	// userName claim given up with it).
	rec, _, err := kept[model.SCIMUser](ctx, s.d.Store, keys.SCIMUser(sc.OrgID, u.ID))
	if err != nil {
		return User{}, err
	}
	if rec != nil {
		if _, err := s.provisioner(sc).Member(ctx, u.ID); err == nil {
			return User{}, scimErr(apperr.Conflict, "uniqueness", "user %s (%s) is provisioned already", u.ID, email)
		}
	} else {
		rec = &model.SCIMUser{}
	}
	rec.CreatedAt = s.d.Clock()
	return s.saveUser(ctx, sc, u.ID, in, *rec, true)
}

// taken is the uniqueness Conflict of a userName another member has.
func taken(userName string) error {
	return scimErr(apperr.Conflict, "uniqueness", "userName %s is taken by another user", userName)
}

// claim returns the operations that give userName to userID: the claim
// rewritten when it is theirs already; a new claim, written only if
// absent, so that of two requests at once only one gets it; or the claim
// taken over, at the version read, when its holder is no longer a member
// (removed through the API, which knows nothing of SCIM). Another
// member's claim is a uniqueness Conflict.
func (s *Service) claim(ctx context.Context, p *orgs.Provisioner, orgID, userName, userID string) ([]store.Op, error) {
	k := keys.SCIMUserName(orgID, strings.ToLower(userName))
	c := model.SCIMUserName{OrgID: orgID, UserName: userName, UserID: userID}
	old, v, err := kept[model.SCIMUserName](ctx, s.d.Store, k)
	if err != nil || old == nil {
		return []store.Op{store.Put(records.Item(k, c, 1), store.IfNotExists)}, err
	}
	if old.UserID != userID {
		_, err := p.Member(ctx, old.UserID)
		if err == nil {
			return nil, taken(userName)
		}
		if !apperr.Is(err, apperr.NotFound) {
			return nil, err
		}
	}
	return []store.Op{store.PutIfVersion(records.Item(k, c, v+1), v)}, nil
}

// release returns the operation that gives up userID's claim of userName
// (none when the claim is not theirs).
func (s *Service) release(ctx context.Context, orgID, userName, userID string) ([]store.Op, error) {
	k := keys.SCIMUserName(orgID, strings.ToLower(userName))
	c, v, err := kept[model.SCIMUserName](ctx, s.d.Store, k)
	if err != nil || c == nil || c.UserID != userID {
		return nil, err
	}
	return []store.Op{store.DeleteIfVersion(k.PK, k.SK, v)}, nil
}

// saveUser keeps in's attributes for userID (rec: what was kept before,
// its userName claimed) and applies in's active. What SCIM keeps and the
// userName's claim are written in one transaction with the membership's
// change when there is one (joining when join is set, else the
// activation), alone otherwise; a claim lost to a request at the same
// time is a uniqueness Conflict.
func (s *Service) saveUser(ctx context.Context, sc Scope, userID string, in userInput, rec model.SCIMUser, join bool) (User, error) {
	p := s.provisioner(sc)
	was := rec.UserName
	rec.OrgID, rec.UserID, rec.UserName = sc.OrgID, userID, strings.TrimSpace(in.UserName)
	rec.DisplayName, rec.Name, rec.Emails, rec.ExternalID = strings.TrimSpace(in.DisplayName), in.Name, in.Emails, ""
	if in.ExternalID != nil {
		rec.ExternalID = *in.ExternalID
	}
	rec.UpdatedAt = s.d.Clock()
	ops, err := s.claim(ctx, p, sc.OrgID, rec.UserName, userID)
	if err != nil {
		return User{}, err
	}
	if was != "" && !strings.EqualFold(was, rec.UserName) {
		rel, err := s.release(ctx, sc.OrgID, was, userID)
		if err != nil {
			return User{}, err
		}
		ops = append(ops, rel...)
	}
	ops = append(ops, store.Put(records.Item(keys.SCIMUser(sc.OrgID, userID), rec, 1), store.Always))
	written := false
	if join {
		_, written, err = p.Join(ctx, userID, NewMemberRole, ops...)
	}
	if err == nil && in.Active != nil {
		also := ops
		if written {
			also = nil
		}
		var changed bool
		_, changed, err = p.SetActive(ctx, userID, bool(*in.Active), also...)
		written = written || changed
	}
	if err == nil && !written {
		err = s.d.Store.Write(ctx, ops...)
	}
	if errors.Is(err, store.ErrConflict) {
		return User{}, taken(rec.UserName)
	}
	if err != nil {
		return User{}, err
	}
	if in.Active != nil && !bool(*in.Active) {
		if err := s.revoke(ctx, p, sc, userID); err != nil {
			return User{}, err
		}
	}
	return s.GetUser(ctx, sc, userID)
}

// revoke deletes, at once, a member's tokens scoped to the organization
// and, unless they are an active member of another organization, their
// tokens of no organization (docs/scim.md, "Deprovisioning").
func (s *Service) revoke(ctx context.Context, p *orgs.Provisioner, sc Scope, userID string) error {
	elsewhere, err := p.ActiveElsewhere(ctx, userID)
	if err != nil {
		return err
	}
	_, err = s.users.RevokeOrgTokens(ctx, userID, sc.OrgID, !elsewhere)
	return err
}

// ReplaceUser replaces a User's attributes (PUT). The Galley user's email
// stays the one it was provisioned with; its display name follows.
func (s *Service) ReplaceUser(ctx context.Context, sc Scope, userID string, body []byte) (User, error) {
	var in userInput
	if err := decode(body, &in); err != nil {
		return User{}, err
	}
	return s.replaceUser(ctx, sc, userID, in)
}

func (s *Service) replaceUser(ctx context.Context, sc Scope, userID string, in userInput) (User, error) {
	cur, err := s.GetUser(ctx, sc, userID)
	if err != nil {
		return User{}, err
	}
	if _, err := checkUser(in); err != nil {
		return User{}, err
	}
	if !strings.EqualFold(strings.TrimSpace(in.UserName), cur.UserName) {
		if err := s.uniqueUserName(ctx, sc, in.UserName, userID); err != nil {
			return User{}, err
		}
	}
	mu, err := s.provisioner(sc).Member(ctx, userID)
	if err != nil {
		return User{}, err
	}
	if name := displayName(in); name != "" && name != mu.User.DisplayName {
		if _, err := s.users.FindOrProvision(ctx, mu.User.Email, name); err != nil {
			return User{}, err
		}
	}
	rec, _, err := kept[model.SCIMUser](ctx, s.d.Store, keys.SCIMUser(sc.OrgID, userID))
	if err != nil {
		return User{}, err
	}
	if rec == nil {
		rec = &model.SCIMUser{CreatedAt: s.d.Clock()}
	}
	return s.saveUser(ctx, sc, userID, in, *rec, false)
}

// PatchUser applies a PATCH (RFC 7644 §3.5.2) to a User.
func (s *Service) PatchUser(ctx context.Context, sc Scope, userID string, body []byte) (User, error) {
	return patched(func() (User, error) { return s.GetUser(ctx, sc, userID) }, body,
		func(in userInput) (User, error) { return s.replaceUser(ctx, sc, userID, in) })
}

// DeleteUser removes the member from the organization (and its teams),
// revokes their tokens as deactivation does, and forgets what SCIM kept:
// its record and userName claim go in the membership's deletion. The
// tokens are revoked first (another family's write): a request that fails
// between is retried by the identity provider and does both.
func (s *Service) DeleteUser(ctx context.Context, sc Scope, userID string) error {
	p := s.provisioner(sc)
	if _, err := p.Member(ctx, userID); apperr.Is(err, apperr.NotFound) {
		return apperr.NotFoundf("user %s not found", userID)
	} else if err != nil {
		return err
	}
	k := keys.SCIMUser(sc.OrgID, userID)
	ops := []store.Op{store.Delete(k.PK, k.SK, store.Always)}
	rec, _, err := kept[model.SCIMUser](ctx, s.d.Store, k)
	if err != nil {
		return err
	}
	if rec != nil {
		rel, err := s.release(ctx, sc.OrgID, rec.UserName, userID)
		if err != nil {
			return err
		}
		ops = append(ops, rel...)
	}
	if err := s.revoke(ctx, p, sc, userID); err != nil {
		return err
	}
	if err := p.Remove(ctx, userID, ops...); err != nil {
		if apperr.Is(err, apperr.NotFound) {
			return apperr.NotFoundf("user %s not found", userID)
		}
		return err
	}
	return nil
}

// patched applies a PATCH body (RFC 7644 §3.5.2) to the resource get
// reads, as answered, and replaces it with the result, read as a
// request's resource (In).
func patched[R, In any](get func() (R, error), body []byte, replace func(In) (R, error)) (R, error) {
	cur, err := get()
	if err != nil {
		return cur, err
	}
	res := asMap(cur)
	if err := applyPatch(res, body); err != nil {
		return cur, err
	}
	var in In
	raw, _ := json.Marshal(res)
	if err := json.Unmarshal(raw, &in); err != nil {
		return cur, invalidValue("the patched resource is not valid: %v", err)
	}
	return replace(in)
}

func asMap(v any) map[string]any {
	raw, _ := json.Marshal(v)
	var m map[string]any
	_ = json.Unmarshal(raw, &m)
	return m
}

package scim

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
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
	items, err := store.QueryAll(ctx, s.d.Store, store.Query{PK: keys.OrgPartition(orgID), SKPrefix: keys.SCIMUserPrefix})
	if err != nil {
		return nil, fmt.Errorf("read SCIM users: %w", err)
	}
	rs, err := records.DecodeAll[model.SCIMUser](items)
	out := make(map[string]model.SCIMUser, len(rs))
	for _, r := range rs {
		out[r.UserID] = r
	}
	return out, err
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
		u.UserName, u.ExternalID, u.Name, u.Emails = r.UserName, r.ExternalID, r.Name, r.Emails
		u.Meta.LastModified = r.UpdatedAt
	} else {
		u.Emails = []model.SCIMEmail{{Value: mu.User.Email, Primary: true}}
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
	rec, _, err := records.Get[model.SCIMUser](ctx, s.d.Store, keys.SCIMUser(sc.OrgID, userID))
	var recp *model.SCIMUser
	if err == nil {
		recp = &rec
	} else if !errors.Is(err, store.ErrNotFound) {
		return User{}, fmt.Errorf("read SCIM user: %w", err)
	}
	titles, err := s.teamTitles(ctx, p)
	if err != nil {
		return User{}, err
	}
	teams, err := p.TeamsOf(ctx, userID)
	if err != nil {
		return User{}, err
	}
	return userResource(sc, mu, recp, teams, titles), nil
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
		if e.Primary {
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
// organization has userName.
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
	if _, _, err := records.Get[model.SCIMUser](ctx, s.d.Store, keys.SCIMUser(sc.OrgID, u.ID)); err == nil {
		if _, err := s.provisioner(sc).Member(ctx, u.ID); err == nil {
			return User{}, scimErr(apperr.Conflict, "uniqueness", "user %s (%s) is provisioned already", u.ID, email)
		}
	}
	if _, _, err := s.provisioner(sc).Join(ctx, u.ID, NewMemberRole); err != nil {
		return User{}, err
	}
	now := s.d.Clock()
	return s.writeUser(ctx, sc, u.ID, in, model.SCIMUser{CreatedAt: now})
}

// writeUser keeps in's attributes for userID (rec: what was kept before)
// and applies its active, then answers the User.
func (s *Service) writeUser(ctx context.Context, sc Scope, userID string, in userInput, rec model.SCIMUser) (User, error) {
	rec.OrgID, rec.UserID, rec.UserName, rec.Name, rec.Emails = sc.OrgID, userID, strings.TrimSpace(in.UserName), in.Name, in.Emails
	if in.ExternalID != nil {
		rec.ExternalID = *in.ExternalID
	}
	rec.UpdatedAt = s.d.Clock()
	if err := s.d.Store.Write(ctx, store.Put(records.Item(keys.SCIMUser(sc.OrgID, userID), rec, 1), store.Always)); err != nil {
		return User{}, fmt.Errorf("write SCIM user: %w", err)
	}
	if in.Active != nil {
		if err := s.setActive(ctx, sc, userID, bool(*in.Active)); err != nil {
			return User{}, err
		}
	}
	return s.GetUser(ctx, sc, userID)
}

// setActive enables or disables a member. Disabling revokes, at once,
// their tokens scoped to the organization and, unless they are an active
// member of another organization, their tokens of no organization
// (docs/scim.md, "Deprovisioning").
func (s *Service) setActive(ctx context.Context, sc Scope, userID string, active bool) error {
	p := s.provisioner(sc)
	if _, _, err := p.SetActive(ctx, userID, active); err != nil {
		return err
	}
	if active {
		return nil
	}
	return s.revoke(ctx, p, sc, userID)
}

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
	rec, _, err := records.Get[model.SCIMUser](ctx, s.d.Store, keys.SCIMUser(sc.OrgID, userID))
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return User{}, fmt.Errorf("read SCIM user: %w", err)
	}
	if rec.CreatedAt.IsZero() {
		rec.CreatedAt = s.d.Clock()
	}
	return s.writeUser(ctx, sc, userID, in, rec)
}

// PatchUser applies a PATCH (RFC 7644 §3.5.2) to a User.
func (s *Service) PatchUser(ctx context.Context, sc Scope, userID string, body []byte) (User, error) {
	cur, err := s.GetUser(ctx, sc, userID)
	if err != nil {
		return User{}, err
	}
	res := asMap(cur)
	if err := applyPatch(res, body); err != nil {
		return User{}, err
	}
	var in userInput
	raw, _ := json.Marshal(res)
	if err := json.Unmarshal(raw, &in); err != nil {
		return User{}, invalidValue("the patched user is not valid: %v", err)
	}
	return s.replaceUser(ctx, sc, userID, in)
}

// DeleteUser removes the member from the organization (and its teams),
// revokes their tokens as deactivation does, and forgets what SCIM kept.
func (s *Service) DeleteUser(ctx context.Context, sc Scope, userID string) error {
	p := s.provisioner(sc)
	if err := p.Remove(ctx, userID); err != nil {
		if apperr.Is(err, apperr.NotFound) {
			return apperr.NotFoundf("user %s not found", userID)
		}
		return err
	}
	k := keys.SCIMUser(sc.OrgID, userID)
	if err := s.d.Store.Write(ctx, store.Delete(k.PK, k.SK, store.Always)); err != nil {
		return fmt.Errorf("delete SCIM user: %w", err)
	}
	return s.revoke(ctx, p, sc, userID)
}

func asMap(v any) map[string]any {
	raw, _ := json.Marshal(v)
	var m map[string]any
	_ = json.Unmarshal(raw, &m)
	return m
}

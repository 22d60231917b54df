package orgs

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/paging"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
)

// maxInvitedEmails bounds one invitation, so that it is one transaction.
const maxInvitedEmails = store.MaxTransactionOps

// EmailInvite is one address to invite; Role, when set, overrides the
// invitation's role for it.
type EmailInvite struct {
	Email string
	Role  *model.Role
}

// InviteUsers makes existing users members (admins only). Each address must
// belong to a user (else Invalid naming emails[i], and nobody is added).
// role is the role of addresses without their own (nil: the organization's
// default role). Users who are already members are left unchanged and not
// counted. It returns the ids of the users added.
func (s *Service) InviteUsers(ctx context.Context, orgID string, emails []EmailInvite, role *model.Role, sso bool) ([]string, error) {
	if _, err := s.d.Authz.RequireOrg(ctx, orgID, access.ManageInvites); err != nil {
		return nil, err
	}
	if len(emails) > maxInvitedEmails {
		return nil, apperr.Field("emails", "at most %d addresses", maxInvitedEmails)
	}
	o, _, err := s.getOrg(ctx, orgID)
	if err != nil {
		return nil, err
	}
	def := o.DefaultRole
	if role != nil {
		def = *role
	}
	if !def.Valid() {
		return nil, apperr.Field("role", "unknown role %q", def)
	}
	type invitee struct {
		userID string
		role   model.Role
	}
	var todo []invitee
	seen := map[string]bool{}
	for i, e := range emails {
		field := fmt.Sprintf("emails[%d]", i)
		r := def
		if e.Role != nil {
			r = *e.Role
		}
		if !r.Valid() {
			return nil, apperr.Field(field, "unknown role %q", r)
		}
		u, err := s.users.ByEmail(ctx, e.Email)
		if apperr.Is(err, apperr.NotFound) {
			return nil, apperr.Field(field, "no user has the email address %q", e.Email)
		}
		if err != nil {
			return nil, err
		}
		if !seen[u.ID] {
			seen[u.ID] = true
			todo = append(todo, invitee{userID: u.ID, role: r})
		}
	}
	var added []string
	invited := change(orgID, model.AuditMembersInvited, targetOrg, orgID, nil)
	inTx := false
	err = store.Retry(ctx, func() error {
		now := s.d.Clock()
		var ops []store.Op
		added = []string{}
		for _, iv := range todo {
			_, _, err := s.getMember(ctx, orgID, iv.userID)
			if err == nil {
				continue // already a member
			}
			if !apperr.Is(err, apperr.NotFound) {
				return err
			}
			m := model.Member{OrgID: orgID, UserID: iv.userID, Role: iv.role, JoinedAt: now, SSO: sso}
			ops = append(ops, store.Put(memberItem(m, 1), store.IfNotExists))
			added = append(added, iv.userID)
		}
		invited.Payload = map[string]any{"users": added}
		if len(ops) == 0 {
			return nil
		}
		// The event rides with the members when they leave it room (else
		// it is written right after).
		if inTx = len(ops) < store.MaxTransactionOps; inTx {
			ops = append(ops, s.audit.Op(ctx, invited))
		}
		// A conflict: someone joined meanwhile.
		if err := s.d.Store.Write(ctx, ops...); err != nil {
			return fmt.Errorf("add members: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(added) > 0 && !inTx {
		if err := s.audit.Record(ctx, invited); err != nil {
			return nil, err
		}
	}
	return added, nil
}

// inviteIDBytes is the randomness of an invite link id: the id alone lets
// any authenticated user join, so it is a secret, not a sortable id.
const inviteIDBytes = 18

// CreateInviteLink makes an invite link giving role (admins only).
func (s *Service) CreateInviteLink(ctx context.Context, orgID string, role model.Role) (model.Invite, error) {
	c, err := s.d.Authz.RequireOrg(ctx, orgID, access.ManageInvites)
	if err != nil {
		return model.Invite{}, err
	}
	if !role.Valid() {
		return model.Invite{}, apperr.Field("role", "unknown role %q", role)
	}
	inv := model.Invite{OrgID: orgID, ID: ids.Secret("", inviteIDBytes), Role: role, CreatedAt: s.d.Clock(), CreatedBy: c.UserID}
	if err := s.d.Store.Write(ctx, store.Put(records.Item(keys.Invite(orgID, inv.ID), inv, 1), store.IfNotExists),
		s.audit.Op(ctx, change(orgID, model.AuditInviteCreated, targetInvite, inv.ID, map[string]any{"role": RoleView(role)}))); err != nil {
		return model.Invite{}, fmt.Errorf("create invite: %w", err)
	}
	return inv, nil
}

// GetInviteLink returns an invite link (admins only).
func (s *Service) GetInviteLink(ctx context.Context, orgID, inviteID string) (model.Invite, error) {
	if _, err := s.d.Authz.RequireOrg(ctx, orgID, access.ManageInvites); err != nil {
		return model.Invite{}, err
	}
	return s.getInvite(ctx, orgID, inviteID)
}

// UpdateInviteLink sets the role an invite link gives (admins only).
func (s *Service) UpdateInviteLink(ctx context.Context, orgID, inviteID string, role model.Role) (model.Invite, error) {
	if _, err := s.d.Authz.RequireOrg(ctx, orgID, access.ManageInvites); err != nil {
		return model.Invite{}, err
	}
	if !role.Valid() {
		return model.Invite{}, apperr.Field("role", "unknown role %q", role)
	}
	inv, err := records.Update(ctx, s.d.Store, keys.Invite(orgID, inviteID), nil, func(inv *model.Invite) ([]store.Op, error) {
		inv.Role = role
		return []store.Op{s.audit.Op(ctx, change(orgID, model.AuditInviteUpdated, targetInvite, inviteID, map[string]any{"role": RoleView(role)}))}, nil
	})
	if errors.Is(err, store.ErrNotFound) {
		return model.Invite{}, apperr.NotFoundf("invite %s not found", inviteID)
	}
	return inv, err
}

// DeleteInviteLink removes an invite link (admins only).
func (s *Service) DeleteInviteLink(ctx context.Context, orgID, inviteID string) (bool, error) {
	if _, err := s.d.Authz.RequireOrg(ctx, orgID, access.ManageInvites); err != nil {
		return false, err
	}
	k := keys.Invite(orgID, inviteID)
	err := s.d.Store.Write(ctx, store.Delete(k.PK, k.SK, store.IfExists), s.audit.Op(ctx, change(orgID, model.AuditInviteDeleted, targetInvite, inviteID, nil)))
	if errors.Is(err, store.ErrConflict) {
		return false, nil
	}
	return err == nil, err
}

// JoinWithInvite makes the caller a member with the invite's role. Any
// authenticated user holding the link may, while the organization has
// invite links enabled (else Forbidden); an unknown invite is NotFound. A
// caller who is already a member is left unchanged.
func (s *Service) JoinWithInvite(ctx context.Context, orgID, inviteID string) error {
	c, err := access.CallerFrom(ctx)
	if err != nil {
		return err
	}
	inv, err := s.getInvite(ctx, orgID, inviteID)
	if err != nil {
		return err
	}
	o, _, err := s.getOrg(ctx, orgID)
	if err != nil {
		return err
	}
	if !o.InviteLinks {
		return apperr.Forbiddenf("invite links are disabled in this organization")
	}
	return s.join(ctx, model.Member{OrgID: orgID, UserID: c.UserID, Role: inv.Role, JoinedAt: s.d.Clock()}, "invite")
}

// join adds the caller's membership m, unless they are a member already
// (left unchanged); via says how they joined, for the audit log.
func (s *Service) join(ctx context.Context, m model.Member, via string) error {
	err := s.d.Store.Write(ctx, store.Put(memberItem(m, 1), store.IfNotExists),
		s.audit.Op(ctx, change(m.OrgID, model.AuditMemberAdded, targetMember, m.UserID, map[string]any{"via": via, "role": RoleView(m.Role)})))
	if errors.Is(err, store.ErrConflict) {
		return nil // already a member
	}
	if err != nil {
		return fmt.Errorf("join organization: %w", err)
	}
	return nil
}

func (s *Service) getInvite(ctx context.Context, orgID, inviteID string) (model.Invite, error) {
	inv, _, err := records.Get[model.Invite](ctx, s.d.Store, keys.Invite(orgID, inviteID))
	if errors.Is(err, store.ErrNotFound) {
		return inv, apperr.NotFoundf("invite %s not found", inviteID)
	}
	if err != nil {
		return inv, fmt.Errorf("read invite: %w", err)
	}
	return inv, nil
}

// ListInviteLinks returns a page of the organization's invite links
// (admins only), in the order of their ids (which are random: a link's id
// is its secret).
func (s *Service) ListInviteLinks(ctx context.Context, orgID string, r paging.Request) (paging.Page[model.Invite], error) {
	p, _, err := ListRecords[model.Invite](ctx, s.d, orgID, access.ManageInvites, "invites", keys.InvitePrefix, "invite links", r)
	return p, err
}

// JoinByEmailDomain makes the caller a member with the organization's
// default role when their email address is at one of its email domains
// (POST /v1/orgs/{organizationId}/join). Galley's addresses are set by the
// instance administrator or by an identity provider, so an address is as
// verified as the account. Callers at none of the domains, like unknown
// organizations, get NotFound: the organization is not theirs to see. A
// caller who is already a member is left unchanged, whatever their address.
func (s *Service) JoinByEmailDomain(ctx context.Context, orgID string) error {
	c, err := access.CallerFrom(ctx)
	if err != nil {
		return err
	}
	u, err := s.users.Get(ctx, c.UserID)
	if err != nil {
		return err
	}
	o, _, err := s.getOrg(ctx, orgID)
	if err != nil {
		return err
	}
	if _, _, err := s.getMember(ctx, orgID, c.UserID); err == nil {
		return nil // a member already, whatever their address
	} else if !apperr.Is(err, apperr.NotFound) {
		return err
	}
	_, domain, _ := strings.Cut(u.Email, "@")
	if domain == "" || !slices.Contains(o.EmailDomains, strings.ToLower(domain)) {
		return apperr.NotFoundf("organization %s not found", orgID)
	}
	return s.join(ctx, model.Member{OrgID: orgID, UserID: c.UserID, Role: o.DefaultRole, JoinedAt: s.d.Clock()}, "email-domain")
}

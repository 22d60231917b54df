package sso

import (
	"context"
	"errors"
	"fmt"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/orgs"
	"github.com/galleydocs/galley/shared/paging"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
)

// What SAML and OpenID Connect providers share: records of the
// organization's partition, read and listed by its admins, each answered
// with its default team.

// kind is one kind of provider: its records' sort-key prefix and key,
// its cursors' scope and its name in messages.
type kind[T any] struct {
	prefix, scope, what string
	key                 func(orgID, id string) keys.Key
}

func samlKind() kind[model.SAMLProvider] {
	return kind[model.SAMLProvider]{keys.SAMLProviderPrefix, "saml-providers", "SAML provider", keys.SAMLProvider}
}

func oidcKind() kind[model.OIDCProvider] {
	return kind[model.OIDCProvider]{keys.OIDCProviderPrefix, "oidc-providers", "OpenID Connect provider", keys.OIDCProvider}
}

func (k kind[T]) notFound(id string) error { return apperr.NotFoundf("%s %s not found", k.what, id) }

// read reads a provider; NotFound if absent.
func (k kind[T]) read(ctx context.Context, st store.Store, orgID, id string) (T, int64, error) {
	p, v, err := records.Get[T](ctx, st, k.key(orgID, id))
	if errors.Is(err, store.ErrNotFound) {
		return p, 0, k.notFound(id)
	}
	if err != nil {
		return p, 0, fmt.Errorf("read %s: %w", k.what, err)
	}
	return p, v, nil
}

// adminRead reads a provider for a caller who administers its
// organization (checked first, so that others learn nothing of it).
func (k kind[T]) adminRead(ctx context.Context, s *Service, orgID, id string) (access.OrgAccess, T, int64, error) {
	var zero T
	acc, err := s.d.Authz.RequireOrg(ctx, orgID, access.AdminOrg)
	if err != nil {
		return acc, zero, 0, err
	}
	p, v, err := k.read(ctx, s.d.Store, orgID, id)
	return acc, p, v, err
}

// update changes a provider with apply (read-modify-write, guarded by its
// version); when that changes anything, changed stamps the provider and
// returns the audit event written in the same transaction.
func (k kind[T]) update(ctx context.Context, s *Service, orgID, id string, apply func(*T) error, changed func(*T) model.AuditChange) (T, error) {
	p, err := records.Update(ctx, s.d.Store, k.key(orgID, id), nil, func(p *T) ([]store.Op, error) {
		was := *p
		if err := apply(p); err != nil {
			return nil, err
		}
		if records.Same(was, *p) {
			return nil, nil
		}
		return []store.Op{s.audit.Op(ctx, changed(p))}, nil
	})
	if errors.Is(err, store.ErrNotFound) {
		return p, k.notFound(id)
	}
	if err != nil {
		return p, fmt.Errorf("update %s: %w", k.what, err)
	}
	return p, nil
}

// getView answers a provider as view makes it (admins).
func getView[T, V any](ctx context.Context, s *Service, k kind[T], orgID, id string, view func(context.Context, T, model.Role) (V, error)) (V, error) {
	acc, p, _, err := k.adminRead(ctx, s, orgID, id)
	if err != nil {
		var zero V
		return zero, err
	}
	return view(ctx, p, acc.Role())
}

// listProviders returns a page of an organization's providers of kind k,
// oldest first, each as view makes it (admins).
func listProviders[T, V any](ctx context.Context, s *Service, k kind[T], orgID string, r paging.Request,
	view func(context.Context, T, model.Role) (V, error)) (paging.Page[V], error) {
	acc, err := s.d.Authz.RequireOrg(ctx, orgID, access.AdminOrg)
	if err != nil {
		return paging.Page[V]{}, err
	}
	ps, err := records.Page[T](ctx, s.d.Store, s.d.Cursors, k.scope+":"+orgID, store.Query{PK: keys.OrgPartition(orgID), SKPrefix: k.prefix}, r, k.what+"s")
	if err != nil {
		return paging.Page[V]{}, err
	}
	out := paging.Page[V]{Items: make([]V, 0, len(ps.Items)), Next: ps.Next}
	for _, p := range ps.Items {
		v, err := view(ctx, p, acc.Role())
		if err != nil {
			return paging.Page[V]{}, err
		}
		out.Items = append(out.Items, v)
	}
	return out, nil
}

// defaultTeam reads a provider's default team: nil when it has none, or
// when that team was deleted since (sign-ins then join no team).
func (s *Service) defaultTeam(ctx context.Context, orgID, teamID string) (*model.Team, error) {
	if teamID == "" {
		return nil, nil
	}
	t, _, err := orgs.ReadTeam(ctx, s.d.Store, orgID, teamID)
	if apperr.Is(err, apperr.NotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read default team: %w", err)
	}
	return &t, nil
}

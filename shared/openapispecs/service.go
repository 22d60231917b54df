// Package openapispecs is the OpenAPI specs family: an organization's
// OpenAPI documents, each named by a slug and fed from a source (a URL, or a
// text), fetched, parsed and kept as versions by a background job.
//
// Decisions (docs/workers.md has the whole story):
//   - A spec is stored in its organization's partition under its slug, so
//     slugs are unique and lists come in slug order; its versions are in a
//     partition of their own keyed by the spec's id, newest first.
//   - Creating a spec (POST, or PUT of an unknown slug) and each PUT set a
//     source and bump the spec's generation: the spec goes back to
//     `pending` and a job `openapi-fetch` for that generation is enqueued.
//     The job fetches the URL through the guarded fetcher (or reads the
//     text), parses the document (kin-openapi; external $refs are never
//     followed) and stores a version with its content and its operations
//     only when the document changed; it ends in `complete`, with
//     `lastProcessErrorCode` FETCH_TIMEOUT, FETCH_ERROR or PARSE_ERROR when
//     it failed (only what cannot be read as OpenAPI 3.x or Swagger 2.0 is
//     a PARSE_ERROR). `lastProcessedErrors` has the failure's reason, or
//     the document's validation problems as warnings (the first 100;
//     `lastProcessedErrorCount` counts them all). A job of an older generation, of a deleted spec, or one
//     already done (a redelivered message) changes nothing.
//   - Members who may read content (role read and up) read specs and
//     versions; role create and up create, update and delete them (the
//     organization's createOpenAPISpec permission). Guests get 403,
//     outsiders 404.
//   - DELETE answers 205, or 204 when there was no such spec; the spec's
//     versions and their content go with it.
package openapispecs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/blob"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/fetch"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/orgs"
	"github.com/galleydocs/galley/shared/paging"
	"github.com/galleydocs/galley/shared/queue"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
)

// JobKind is the kind of the jobs that process a spec's source.
const JobKind = "openapi-fetch"

// MaxSpecs is the most specs an organization has.
const MaxSpecs = 500

// Service manages OpenAPI specs.
type Service struct {
	d *deps.Deps
	// FetchTimeout bounds the fetch of a document.
	FetchTimeout time.Duration
	// MaxDocumentBytes bounds a fetched document (default the constant).
	MaxDocumentBytes int64
	parse            Parser
	// docs keeps parsed documents for the content reads (SpecOperation).
	docs *docCache
}

// Parser reads an OpenAPI document (JSON or YAML): an error when it is not
// one (its message is the reason shown to users), else what it holds, with
// its validation problems as warnings (package openapiworker has it).
type Parser func(ctx context.Context, raw []byte) (Parsed, error)

// Parsed is what a Parser makes of a document.
type Parsed struct {
	// Doc is the document as JSON.
	Doc []byte
	// Operations are the document's operations, by path then method.
	Operations []model.OpenAPIOperation
	// Warnings are the first model.MaxOpenAPIProblems validation problems;
	// WarningCount counts them all.
	Warnings     []string
	WarningCount int
}

// New returns the OpenAPI specs service; parse processes documents (jobs
// run in this process, the worker's or local mode's, need one; nil in the
// OpenAPI function, which only enqueues them).
func New(d *deps.Deps, parse Parser) *Service {
	return &Service{d: d, FetchTimeout: fetch.Timeout, MaxDocumentBytes: MaxDocumentBytes, docs: newDocCache(), parse: parse}
}

// Source is where a spec's document comes from: exactly one of URL and Text.
type Source struct {
	URL  string
	Text string
}

// check validates a source.
func (src Source) check() error {
	switch {
	case src.URL != "" && src.Text != "":
		return apperr.Field("source", "give either url or text, not both")
	case src.URL == "" && src.Text == "":
		return apperr.Field("source", "give url or text")
	case src.URL != "":
		u, err := url.Parse(src.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return apperr.Field("source.url", "must be an http or https URL")
		}
		// The URL is kept to fetch the document again on each update: it
		// must hold no secret.
		if u.User != nil {
			return apperr.Field("source.url", "must not embed credentials")
		}
	}
	return nil
}

// job is the payload of an openapi-fetch job.
type job struct {
	OrgID      string `json:"orgId"`
	Slug       string `json:"slug"`
	SpecID     string `json:"specId"`
	Generation int64  `json:"generation"`
}

func notFound(slug string) error { return apperr.NotFoundf("OpenAPI spec %s not found", slug) }

// textKey is the blob key of a spec's source text, by generation (a job
// reads the text of its own generation).
func textKey(orgID, specID string, generation int64) string {
	return fmt.Sprintf("openapi/%s/%s/source-%d", orgID, specID, generation)
}

// contentKey is the blob key of a version's document (JSON), by digest.
func contentKey(orgID, specID, digest string) string {
	return "openapi/" + orgID + "/" + specID + "/" + digest + ".json"
}

// rawKey is the blob key of a version's source as read (JSON or YAML), by
// the digest of its document.
func rawKey(orgID, specID, digest string) string {
	return "openapi/" + orgID + "/" + specID + "/" + digest + ".source"
}

// operationsKey is the blob key of a version's operations (JSON), by digest.
func operationsKey(orgID, specID, digest string) string {
	return "openapi/" + orgID + "/" + specID + "/" + digest + ".operations.json"
}

// Create makes a spec under a new slug and starts processing it.
func (s *Service) Create(ctx context.Context, orgID, slug string, src Source) (model.OpenAPISpec, model.Role, error) {
	sp, role, created, err := s.put(ctx, orgID, slug, src, true)
	if err == nil && !created {
		err = apperr.Conflictf("an OpenAPI spec with slug %s exists", slug)
	}
	return sp, role, err
}

// Put sets the source of the spec at slug, making it if needed, and starts
// processing it; created tells which.
func (s *Service) Put(ctx context.Context, orgID, slug string, src Source) (model.OpenAPISpec, model.Role, bool, error) {
	return s.put(ctx, orgID, slug, src, false)
}

func (s *Service) put(ctx context.Context, orgID, slug string, src Source, onlyNew bool) (model.OpenAPISpec, model.Role, bool, error) {
	acc, err := s.d.Authz.RequireOrg(ctx, orgID, access.CreateOpenAPI)
	if err != nil {
		return model.OpenAPISpec{}, "", false, err
	}
	if err := src.check(); err != nil {
		return model.OpenAPISpec{}, "", false, err
	}
	k := keys.OpenAPISpec(orgID, slug)
	var out model.OpenAPISpec
	var created bool
	existed := false // onlyNew met a spec: answer it as it is
	err = store.Retry(ctx, func() error {
		cur, v, err := records.Get[model.OpenAPISpec](ctx, s.d.Store, k)
		exists := err == nil
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("read OpenAPI spec: %w", err)
		}
		if exists && onlyNew {
			out, existed = cur, true
			return nil
		}
		now := s.d.Clock()
		sp := cur
		if !exists {
			if err := s.checkCount(ctx, orgID); err != nil {
				return err
			}
			sp = model.OpenAPISpec{ID: ids.New(now), OrgID: orgID, Slug: slug, CreatedAt: now, CreatedBy: acc.UserID}
		}
		sp.Generation++
		sp.UpdatedAt, sp.ProcessingState = now, model.OpenAPIPending
		sp.Lease = &model.JobLease{JobID: jobID(sp), Until: now.Add(LeaseTTL)}
		sp.SourceURL, sp.SourceText = src.URL, ""
		if src.Text != "" {
			sp.SourceText = textKey(orgID, sp.ID, sp.Generation)
			if err := s.d.Blobs.Put(ctx, sp.SourceText, []byte(src.Text), "text/plain; charset=utf-8"); err != nil {
				return fmt.Errorf("store OpenAPI source text: %w", err)
			}
		}
		var op store.Op
		if exists {
			op = store.PutIfVersion(records.Item(k, sp, v+1), v)
		} else {
			op = store.Put(records.Item(k, sp, 1), store.IfNotExists)
		}
		err = s.d.Store.Write(ctx, orgs.CheckOrg(orgID, 0), op)
		if errors.Is(err, store.ErrConflict) {
			if _, _, oerr := orgs.ReadOrg(ctx, s.d.Store, orgID); apperr.Is(oerr, apperr.NotFound) {
				return oerr
			}
		}
		if err != nil {
			return fmt.Errorf("write OpenAPI spec: %w", err)
		}
		out, created = sp, !exists
		return nil
	})
	if err != nil {
		return model.OpenAPISpec{}, "", false, err
	}
	if existed {
		// A POST repeated by its client after a 503 that came once the
		// spec was written (its job not enqueued, or its processing within
		// the request failed): the same creator, the same source, no
		// source set since, not processed yet. It answers as the first
		// should have (created) and hands the job out again, so the spec
		// is not left pending. Once processed, a POST of the slug is 409.
		again, err := s.samePost(ctx, out, acc.UserID, src)
		if err != nil || !again || out.Processed >= out.Generation {
			return out, acc.Role(), false, err
		}
		if out, err = s.handOut(ctx, out); err != nil {
			return out, "", false, err
		}
		return out, acc.Role(), true, nil
	}
	if err := s.enqueue(ctx, out); err != nil {
		return out, "", false, err
	}
	if s.d.Queue == nil {
		// Processed within the request: answer what it made.
		if fresh, _, err := records.Get[model.OpenAPISpec](ctx, s.d.Store, k); err == nil && fresh.ID == out.ID {
			out = fresh
		}
	}
	return out, acc.Role(), created, nil
}

// checkCount refuses a spec past MaxSpecs.
func (s *Service) checkCount(ctx context.Context, orgID string) error {
	n := 0
	q := store.Query{PK: keys.OrgPartition(orgID), SKPrefix: keys.OpenAPISpecPrefix, Limit: store.MaxQueryLimit}
	for {
		p, err := s.d.Store.Query(ctx, q)
		if err != nil {
			return fmt.Errorf("count OpenAPI specs: %w", err)
		}
		n += len(p.Items)
		if n >= MaxSpecs {
			return apperr.Conflictf("an organization has at most %d OpenAPI specs", MaxSpecs)
		}
		if p.Next == nil {
			return nil
		}
		q.After = p.Next
	}
}

// LeaseTTL is how long a spec's job may go without an outcome before it is
// handed out again: longer than the OpenAPI worker runs (120 s), shorter
// than its queue's visibility timeout (720 s), after which SQS itself
// delivers an unfinished job again.
const LeaseTTL = 5 * time.Minute

// jobID is the id of the job of a spec's current generation: each
// delivery, and each handing out again, carries it.
func jobID(sp model.OpenAPISpec) string { return fmt.Sprintf("%s-%d", sp.ID, sp.Generation) }

// leaseLive tells whether the spec's current job may still conclude on
// its own (handed out or started less than LeaseTTL ago).
func leaseLive(sp model.OpenAPISpec, now time.Time) bool {
	return sp.Lease != nil && sp.Lease.JobID == jobID(sp) && now.Before(sp.Lease.Until)
}

// samePost tells whether a POST of src by user is a repeat of the one
// that made sp: sp has had no other source, made by user, from the same
// URL or the same text.
func (s *Service) samePost(ctx context.Context, sp model.OpenAPISpec, user string, src Source) (bool, error) {
	if sp.Generation != 1 || sp.CreatedBy != user || sp.SourceURL != src.URL || (src.Text == "") != (sp.SourceText == "") {
		return false, nil
	}
	if src.Text == "" {
		return true, nil
	}
	text, err := s.d.Blobs.Get(ctx, sp.SourceText)
	if errors.Is(err, blob.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read OpenAPI source text: %w", err)
	}
	return string(text) == src.Text, nil
}

// revive hands out again the job of a spec whose lease expired without an
// outcome: its worker died past SQS's redeliveries, or enqueueing it
// failed after the spec was written. Reads call it, so no spec stays
// pending or in progress for ever; a failure to hand it out is logged and
// the spec answered as it is (the next read tries again).
func (s *Service) revive(ctx context.Context, sp model.OpenAPISpec) model.OpenAPISpec {
	if sp.Processed >= sp.Generation || leaseLive(sp, s.d.Clock()) {
		return sp
	}
	out, err := s.handOut(ctx, sp)
	if err != nil {
		s.d.Logger.WarnContext(ctx, "OpenAPI spec job not handed out again", "spec", sp.ID, "generation", sp.Generation, "err", err)
		return sp
	}
	return out
}

// handOut renews the lease of the spec's current job (pending again) and
// enqueues it. A spec that changed meanwhile is answered as it is now: its
// own job, or its outcome, came.
func (s *Service) handOut(ctx context.Context, sp model.OpenAPISpec) (model.OpenAPISpec, error) {
	k := keys.OpenAPISpec(sp.OrgID, sp.Slug)
	cur, v, err := records.Get[model.OpenAPISpec](ctx, s.d.Store, k)
	if err != nil {
		return sp, fmt.Errorf("read OpenAPI spec: %w", err)
	}
	if cur.ID != sp.ID || cur.Processed >= cur.Generation {
		return cur, nil
	}
	now := s.d.Clock()
	cur.ProcessingState, cur.Lease = model.OpenAPIPending, &model.JobLease{JobID: jobID(cur), Until: now.Add(LeaseTTL)}
	if err := s.d.Store.Write(ctx, store.PutIfVersion(records.Item(k, cur, v+1), v)); errors.Is(err, store.ErrConflict) {
		fresh, _, err := records.Get[model.OpenAPISpec](ctx, s.d.Store, k)
		return fresh, err
	} else if err != nil {
		return cur, fmt.Errorf("hand out OpenAPI spec job: %w", err)
	}
	s.d.Logger.InfoContext(ctx, "OpenAPI spec job handed out again", "spec", cur.ID, "generation", cur.Generation)
	if err := s.enqueue(ctx, cur); err != nil {
		return cur, err
	}
	if s.d.Queue == nil {
		if fresh, _, err := records.Get[model.OpenAPISpec](ctx, s.d.Store, k); err == nil && fresh.ID == cur.ID {
			cur = fresh
		}
	}
	return cur, nil
}

// enqueue hands the spec's current generation to the worker; without a
// queue (no QUEUE_URL) the job runs here and now.
func (s *Service) enqueue(ctx context.Context, sp model.OpenAPISpec) error {
	payload, err := json.Marshal(job{OrgID: sp.OrgID, Slug: sp.Slug, SpecID: sp.ID, Generation: sp.Generation})
	if err != nil {
		return err
	}
	j := queue.Job{ID: jobID(sp), Kind: JobKind, Group: sp.ID, Payload: payload}
	if s.d.Queue == nil {
		return s.Handle(ctx, j)
	}
	if err := s.d.Queue.Enqueue(ctx, j); err != nil {
		return fmt.Errorf("enqueue OpenAPI processing: %w", err)
	}
	return nil
}

// List returns a page of an organization's specs in slug order.
func (s *Service) List(ctx context.Context, orgID string, r paging.Request) (paging.Page[model.OpenAPISpec], model.Role, error) {
	return orgs.ListRecords[model.OpenAPISpec](ctx, s.d, orgID, access.ReadContent, "openapi", keys.OpenAPISpecPrefix, "OpenAPI specs", r)
}

// Get returns a spec.
func (s *Service) Get(ctx context.Context, orgID, slug string) (model.OpenAPISpec, model.Role, error) {
	acc, err := s.d.Authz.RequireOrg(ctx, orgID, access.ReadContent)
	if err != nil {
		return model.OpenAPISpec{}, "", err
	}
	sp, err := s.read(ctx, orgID, slug)
	if err != nil {
		return sp, "", err
	}
	return s.revive(ctx, sp), acc.Role(), nil
}

func (s *Service) read(ctx context.Context, orgID, slug string) (model.OpenAPISpec, error) {
	sp, _, err := records.Get[model.OpenAPISpec](ctx, s.d.Store, keys.OpenAPISpec(orgID, slug))
	if errors.Is(err, store.ErrNotFound) {
		return sp, notFound(slug)
	}
	if err != nil {
		return sp, fmt.Errorf("read OpenAPI spec: %w", err)
	}
	return sp, nil
}

// Delete removes a spec with its versions and their content; existed
// tells whether there was one.
func (s *Service) Delete(ctx context.Context, orgID, slug string) (existed bool, err error) {
	if _, err := s.d.Authz.RequireOrg(ctx, orgID, access.CreateOpenAPI); err != nil {
		return false, err
	}
	k := keys.OpenAPISpec(orgID, slug)
	sp, v, err := records.Get[model.OpenAPISpec](ctx, s.d.Store, k)
	if errors.Is(err, store.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read OpenAPI spec: %w", err)
	}
	if err := s.d.Store.Write(ctx, store.DeleteIfVersion(k.PK, k.SK, v)); errors.Is(err, store.ErrConflict) {
		return false, apperr.Conflictf("the OpenAPI spec changed meanwhile; try again")
	} else if err != nil {
		return false, fmt.Errorf("delete OpenAPI spec: %w", err)
	}
	// The spec is gone: nothing reaches its versions any more, and a job
	// still queued for it finds no spec. Removing them is housekeeping.
	if err := s.purge(ctx, sp); err != nil {
		s.d.Logger.WarnContext(ctx, "OpenAPI spec deleted, versions left behind", "spec", sp.ID, "err", err)
	}
	return true, nil
}

// purge removes a deleted spec's versions, their content and its texts.
func (s *Service) purge(ctx context.Context, sp model.OpenAPISpec) error {
	items, err := store.QueryAll(ctx, s.d.Store, store.Query{PK: keys.OpenAPIVersions(sp.ID), SKPrefix: keys.OpenAPIVersionPrefix})
	if err != nil {
		return err
	}
	versions, err := records.DecodeAll[model.OpenAPISpecVersion](items)
	if err != nil {
		return err
	}
	var ops []store.Op
	for i, ver := range versions {
		if err := s.d.Blobs.Delete(ctx, contentKey(sp.OrgID, sp.ID, ver.Digest)); err != nil {
			return err
		}
		if err := s.d.Blobs.Delete(ctx, operationsKey(sp.OrgID, sp.ID, ver.Digest)); err != nil {
			return err
		}
		if err := s.d.Blobs.Delete(ctx, rawKey(sp.OrgID, sp.ID, ver.Digest)); err != nil {
			return err
		}
		ops = append(ops, store.Delete(items[i].PK, items[i].SK, store.Always))
		if len(ops) == store.MaxTransactionOps || i == len(versions)-1 {
			if err := s.d.Store.Write(ctx, ops...); err != nil {
				return err
			}
			ops = ops[:0]
		}
	}
	for g := int64(1); g <= sp.Generation; g++ {
		if err := s.d.Blobs.Delete(ctx, textKey(sp.OrgID, sp.ID, g)); err != nil {
			return err
		}
	}
	return nil
}

// Versions returns a page of a spec's versions, newest first, and the spec.
func (s *Service) Versions(ctx context.Context, orgID, slug string, r paging.Request) (paging.Page[model.OpenAPISpecVersion], model.OpenAPISpec, error) {
	sp, _, err := s.Get(ctx, orgID, slug)
	if err != nil {
		return paging.Page[model.OpenAPISpecVersion]{}, sp, err
	}
	p, err := records.Page[model.OpenAPISpecVersion](ctx, s.d.Store, s.d.Cursors, "openapi-versions:"+orgID+":"+slug,
		store.Query{PK: keys.OpenAPIVersions(sp.ID), SKPrefix: keys.OpenAPIVersionPrefix, Reverse: true}, r, "OpenAPI spec versions")
	return p, sp, err
}

// Version returns a version of a spec by id, or its latest ("latest").
func (s *Service) Version(ctx context.Context, orgID, slug, versionID string) (model.OpenAPISpec, model.OpenAPISpecVersion, error) {
	sp, _, err := s.Get(ctx, orgID, slug)
	if err != nil {
		return sp, model.OpenAPISpecVersion{}, err
	}
	if versionID == "latest" {
		if sp.LastVersion == "" {
			return sp, model.OpenAPISpecVersion{}, apperr.NotFoundf("OpenAPI spec %s has no version yet", slug)
		}
		versionID = sp.LastVersion
	}
	ver, _, err := records.Get[model.OpenAPISpecVersion](ctx, s.d.Store, keys.OpenAPIVersion(sp.ID, versionID))
	if errors.Is(err, store.ErrNotFound) {
		return sp, ver, apperr.NotFoundf("version %s of OpenAPI spec %s not found", versionID, slug)
	}
	if err != nil {
		return sp, ver, fmt.Errorf("read OpenAPI spec version: %w", err)
	}
	return sp, ver, nil
}

// Operations returns a version's operations (by id, or "latest").
func (s *Service) Operations(ctx context.Context, orgID, slug, versionID string) (model.OpenAPISpecVersion, []model.OpenAPIOperation, error) {
	sp, ver, err := s.Version(ctx, orgID, slug, versionID)
	if err != nil {
		return ver, nil, err
	}
	raw, err := s.d.Blobs.Get(ctx, operationsKey(sp.OrgID, sp.ID, ver.Digest))
	if errors.Is(err, blob.ErrNotFound) {
		// A version stored before operations were recorded.
		return ver, nil, apperr.NotFoundf("the operations of version %s were not recorded; update the spec to process it again", ver.ID)
	}
	if err != nil {
		return ver, nil, fmt.Errorf("read OpenAPI spec version operations: %w", err)
	}
	var ops []model.OpenAPIOperation
	if err := json.Unmarshal(raw, &ops); err != nil {
		return ver, nil, fmt.Errorf("decode OpenAPI spec version operations: %w", err)
	}
	return ver, ops, nil
}

// Content returns a version's document as JSON.
func (s *Service) Content(ctx context.Context, orgID, slug, versionID string) (model.OpenAPISpec, model.OpenAPISpecVersion, json.RawMessage, error) {
	sp, ver, err := s.Version(ctx, orgID, slug, versionID)
	if err != nil {
		return sp, ver, nil, err
	}
	raw, err := s.d.Blobs.Get(ctx, contentKey(sp.OrgID, sp.ID, ver.Digest))
	if err != nil {
		return sp, ver, nil, fmt.Errorf("read OpenAPI spec version content: %w", err)
	}
	return sp, ver, raw, nil
}

// RawContent returns the source of a spec's latest version as it was read
// (JSON or YAML) and its format. Versions made before sources were kept
// have none (NotFound, as GitBook answers for its legacy versions).
func (s *Service) RawContent(ctx context.Context, orgID, slug string) (text []byte, format string, err error) {
	sp, ver, err := s.Version(ctx, orgID, slug, "latest")
	if err != nil {
		return nil, "", err
	}
	if ver.RawFormat == "" {
		return nil, "", apperr.NotFoundf("the source of version %s was not kept; update the spec to process it again", ver.ID)
	}
	raw, err := s.d.Blobs.Get(ctx, rawKey(sp.OrgID, sp.ID, ver.Digest))
	if err != nil {
		return nil, "", fmt.Errorf("read OpenAPI spec version source: %w", err)
	}
	return raw, ver.RawFormat, nil
}

// SetVisibility sets who may read a spec's content without a token:
// model.OpenAPIPublic or model.OpenAPIPrivate (as CreateOpenAPI).
func (s *Service) SetVisibility(ctx context.Context, orgID, slug, visibility string) (model.OpenAPISpec, model.Role, error) {
	acc, err := s.d.Authz.RequireOrg(ctx, orgID, access.CreateOpenAPI)
	if err != nil {
		return model.OpenAPISpec{}, "", err
	}
	if visibility != model.OpenAPIPublic && visibility != model.OpenAPIPrivate {
		return model.OpenAPISpec{}, "", apperr.Field("visibility", "must be %s or %s", model.OpenAPIPrivate, model.OpenAPIPublic)
	}
	sp, err := records.Update(ctx, s.d.Store, keys.OpenAPISpec(orgID, slug), nil, func(sp *model.OpenAPISpec) ([]store.Op, error) {
		if Visibility(*sp) != visibility {
			sp.Visibility, sp.UpdatedAt = visibility, s.d.Clock()
		}
		return nil, nil
	})
	if errors.Is(err, store.ErrNotFound) {
		return sp, "", notFound(slug)
	}
	return sp, acc.Role(), err
}

// Visibility is a spec's visibility ("" reads as private).
func Visibility(sp model.OpenAPISpec) string {
	if sp.Visibility == "" {
		return model.OpenAPIPrivate
	}
	return sp.Visibility
}

// ForContent answers content's questions about the organization's specs
// (content.Specs): computed API reference pages and OpenAPI blocks. The
// caller's right was checked by content on the space being read, whose
// organization's specs these are; nothing else is read or answered.
type ForContent struct{ s *Service }

// ForContent returns s as content.Specs.
func (s *Service) ForContent() ForContent { return ForContent{s} }

// FindSpec finds a spec of orgID by slug, else by id or source URL (a
// scan of the organization's specs, which are few: MaxSpecs).
func (f ForContent) FindSpec(ctx context.Context, orgID, ref string) (content.SpecInfo, bool, error) {
	if ref == "" {
		return content.SpecInfo{}, false, nil
	}
	info := func(sp model.OpenAPISpec) content.SpecInfo {
		return content.SpecInfo{ID: sp.ID, OrgID: sp.OrgID, Slug: sp.Slug, LastVersion: sp.LastVersion}
	}
	sp, err := f.s.read(ctx, orgID, ref)
	if err == nil {
		return info(sp), true, nil
	}
	// A ref the store cannot hold as a key (a source URL over its key
	// limit) is no slug: look among the ids and URLs.
	if !apperr.Is(err, apperr.NotFound) && !errors.Is(err, store.ErrInvalidKey) {
		return content.SpecInfo{}, false, err
	}
	items, err := store.QueryAll(ctx, f.s.d.Store, store.Query{PK: keys.OrgPartition(orgID), SKPrefix: keys.OpenAPISpecPrefix})
	if err != nil {
		return content.SpecInfo{}, false, fmt.Errorf("list OpenAPI specs: %w", err)
	}
	specs, err := records.DecodeAll[model.OpenAPISpec](items)
	if err != nil {
		return content.SpecInfo{}, false, err
	}
	for _, sp := range specs {
		if sp.ID == ref || (sp.SourceURL != "" && sp.SourceURL == ref) {
			return info(sp), true, nil
		}
	}
	return content.SpecInfo{}, false, nil
}

// latestVersion reads the spec's latest version (ok false before the
// first).
func (s *Service) latestVersion(ctx context.Context, spec content.SpecInfo) (model.OpenAPISpecVersion, bool, error) {
	if spec.LastVersion == "" {
		return model.OpenAPISpecVersion{}, false, nil
	}
	ver, _, err := records.Get[model.OpenAPISpecVersion](ctx, s.d.Store, keys.OpenAPIVersion(spec.ID, spec.LastVersion))
	if errors.Is(err, store.ErrNotFound) {
		return ver, false, nil
	}
	if err != nil {
		return ver, false, fmt.Errorf("read OpenAPI spec version: %w", err)
	}
	return ver, true, nil
}

// SpecOperations lists the operations of the spec's latest version.
func (f ForContent) SpecOperations(ctx context.Context, spec content.SpecInfo) ([]content.SpecOperation, error) {
	ver, ok, err := f.s.latestVersion(ctx, spec)
	if err != nil || !ok {
		return nil, err
	}
	raw, err := f.s.d.Blobs.Get(ctx, operationsKey(spec.OrgID, spec.ID, ver.Digest))
	if errors.Is(err, blob.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read OpenAPI spec version operations: %w", err)
	}
	var ops []model.OpenAPIOperation
	if err := json.Unmarshal(raw, &ops); err != nil {
		return nil, fmt.Errorf("decode OpenAPI spec version operations: %w", err)
	}
	out := make([]content.SpecOperation, len(ops))
	for i, o := range ops {
		out[i] = content.SpecOperation{Path: o.Path, Method: o.Method, Tags: o.Tags}
	}
	return out, nil
}

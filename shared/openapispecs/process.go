package openapispecs

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"path"

	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/fetch"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/queue"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
)

// MaxDocumentBytes bounds a fetched document.
const MaxDocumentBytes = 10 << 20

// Handle runs an openapi-fetch job: it processes the job's generation of
// its spec, unless the spec is gone, has moved on to a newer generation, or
// has processed this one already (the message came twice). A failed fetch
// or parse is an outcome recorded on the spec, not a job failure; only
// storage failures are returned (and the job retried).
func (s *Service) Handle(ctx context.Context, j queue.Job) error {
	var p job
	if err := json.Unmarshal(j.Payload, &p); err != nil {
		return fmt.Errorf("decode %s job: %w", JobKind, err)
	}
	k := keys.OpenAPISpec(p.OrgID, p.Slug)
	current := func() (model.OpenAPISpec, int64, bool, error) {
		sp, v, err := records.Get[model.OpenAPISpec](ctx, s.d.Store, k)
		if errors.Is(err, store.ErrNotFound) {
			return sp, 0, false, nil
		}
		if err != nil {
			return sp, 0, false, fmt.Errorf("read OpenAPI spec: %w", err)
		}
		return sp, v, sp.ID == p.SpecID && sp.Generation == p.Generation && sp.Processed < p.Generation, nil
	}
	sp, v, due, err := current()
	if err != nil || !due {
		return err
	}
	if sp.ProcessingState != model.OpenAPIProgress {
		sp.ProcessingState = model.OpenAPIProgress
		if err := s.d.Store.Write(ctx, store.PutIfVersion(records.Item(k, sp, v+1), v)); errors.Is(err, store.ErrConflict) {
			return nil // a newer source, or a deletion, came meanwhile: its own job takes over
		} else if err != nil {
			return fmt.Errorf("mark OpenAPI spec in progress: %w", err)
		}
	}
	doc, name, from, code := s.load(ctx, sp)
	return store.Retry(ctx, func() error {
		sp, v, due, err := current()
		if err != nil || !due {
			return err
		}
		now := s.d.Clock()
		sp.ProcessingState, sp.Processed, sp.LastProcessedAt, sp.LastProcessErrorCode = model.OpenAPIComplete, p.Generation, &now, code
		ops := []store.Op{store.PutIfVersion(records.Item(k, sp, v+1), v)}
		if code == "" {
			digest := content.Hash(doc)
			if digest != sp.LastDigest {
				if err := s.d.Blobs.Put(ctx, contentKey(sp.OrgID, sp.ID, digest), doc, "application/json"); err != nil {
					return fmt.Errorf("store OpenAPI document: %w", err)
				}
				// The version is written with the spec, guarded by the spec's
				// version: of two runs of one job, only one lands.
				ver := model.OpenAPISpecVersion{ID: ids.New(now), SpecID: sp.ID, OrgID: sp.OrgID, CreatedAt: now,
					URL: from, Name: name, Digest: digest}
				sp.LastVersion, sp.LastDigest = ver.ID, digest
				ops = []store.Op{store.PutIfVersion(records.Item(k, sp, v+1), v),
					store.Put(records.Item(keys.OpenAPIVersion(sp.ID, ver.ID), ver, 1), store.IfNotExists)}
			}
		}
		if err := s.d.Store.Write(ctx, ops...); err != nil {
			return fmt.Errorf("record OpenAPI processing: %w", err)
		}
		s.d.Logger.InfoContext(ctx, "OpenAPI spec processed", "spec", sp.ID, "generation", p.Generation, "errorCode", code)
		return nil
	})
}

// load reads and parses a spec's document: its JSON form, its file name
// and where it came from, or an error code.
func (s *Service) load(ctx context.Context, sp model.OpenAPISpec) (doc []byte, name, from, code string) {
	var raw []byte
	switch {
	case sp.SourceURL != "":
		res, err := fetch.NewWithTimeout(s.d.FetchAllowPrivate, s.FetchTimeout).Fetch(ctx, sp.SourceURL, MaxDocumentBytes)
		var fe *fetch.Error
		switch {
		case errors.As(err, &fe) && fe.Code == fetch.CodeTimeout:
			return nil, "", "", model.OpenAPIFetchTimeout
		case err != nil:
			s.d.Logger.InfoContext(ctx, "OpenAPI fetch failed", "spec", sp.ID, "url", fetch.Redact(sp.SourceURL), "err", err.Error())
			return nil, "", "", model.OpenAPIFetchError
		}
		raw, from = res.Body, fetch.Redact(sp.SourceURL)
		name = fileName(sp.SourceURL)
	default:
		text, err := s.d.Blobs.Get(ctx, sp.SourceText)
		if err != nil {
			return nil, "", "", model.OpenAPIFetchError
		}
		raw, name = text, "openapi.yaml"
		if t := bytes.TrimSpace(text); len(t) > 0 && t[0] == '{' {
			name = "openapi.json"
		}
	}
	if s.parse == nil {
		// An API function without its queue: it cannot process documents.
		return nil, "", "", model.OpenAPIParseError
	}
	doc, err := s.parse(ctx, raw)
	if err != nil {
		s.d.Logger.InfoContext(ctx, "OpenAPI parse failed", "spec", sp.ID, "err", err.Error())
		return nil, "", "", model.OpenAPIParseError
	}
	return doc, name, from, ""
}

// fileName is the last segment of a URL's path, or openapi.json.
func fileName(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "openapi.json"
	}
	if base := path.Base(u.Path); base != "." && base != "/" && base != "" {
		return base
	}
	return "openapi.json"
}

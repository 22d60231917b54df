package openapispecs

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"path"
	"unicode/utf8"

	"github.com/galleydocs/galley/shared/blob"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/fetch"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/queue"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
)

// MaxDocumentBytes bounds a fetched document: 64 MiB, past the largest
// public documents met (GitHub's full description is about 12 MB as JSON).
// The worker holds the document about ten times over while it parses it
// (decoded tree, kin-openapi's model): its memory is sized for this.
const MaxDocumentBytes = 64 << 20

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
	// Start: the spec in progress, with the lease of this run. A worker
	// killed from here on leaves it so until the lease expires; SQS then
	// delivers the job again, or a read hands it out again (revive).
	var sp model.OpenAPISpec
	due := false
	err := store.Retry(ctx, func() error {
		var v int64
		var err error
		if sp, v, due, err = current(); err != nil || !due {
			return err
		}
		sp.ProcessingState = model.OpenAPIProgress
		sp.Lease = &model.JobLease{JobID: jobID(sp), Until: s.d.Clock().Add(LeaseTTL)}
		return s.d.Store.Write(ctx, store.PutIfVersion(records.Item(k, sp, v+1), v))
	})
	if err != nil || !due {
		// Not due: a newer source, a deletion or another delivery's outcome
		// came; the spec's own job takes over.
		if err != nil {
			return fmt.Errorf("mark OpenAPI spec in progress: %w", err)
		}
		return nil
	}
	res, err := s.load(ctx, sp)
	if err != nil {
		return err
	}
	return store.Retry(ctx, func() error {
		sp, v, due, err := current()
		if err != nil || !due {
			return err
		}
		now := s.d.Clock()
		sp.ProcessingState, sp.Processed, sp.LastProcessedAt, sp.LastProcessErrorCode = model.OpenAPIComplete, p.Generation, &now, res.code
		sp.Lease = nil
		sp.LastProcessedErrors, sp.LastProcessedErrorCount = res.problems(), res.problemCount()
		ops := []store.Op{store.PutIfVersion(records.Item(k, sp, v+1), v)}
		if res.code == "" {
			doc := res.parsed.Doc
			digest := content.Hash(doc)
			if digest != sp.LastDigest {
				if err := s.d.Blobs.Put(ctx, contentKey(sp.OrgID, sp.ID, digest), doc, "application/json"); err != nil {
					return fmt.Errorf("store OpenAPI document: %w", err)
				}
				list := res.parsed.Operations
				if list == nil {
					list = []model.OpenAPIOperation{}
				}
				opsJSON, err := json.Marshal(list)
				if err != nil {
					return err
				}
				if err := s.d.Blobs.Put(ctx, operationsKey(sp.OrgID, sp.ID, digest), opsJSON, "application/json"); err != nil {
					return fmt.Errorf("store OpenAPI operations: %w", err)
				}
				if err := s.d.Blobs.Put(ctx, rawKey(sp.OrgID, sp.ID, digest), res.raw, "text/plain; charset=utf-8"); err != nil {
					return fmt.Errorf("store OpenAPI source: %w", err)
				}
				// The version is written with the spec, guarded by the spec's
				// version: of two runs of one job, only one lands.
				ver := model.OpenAPISpecVersion{ID: ids.New(now), SpecID: sp.ID, OrgID: sp.OrgID, CreatedAt: now,
					URL: res.from, Name: res.name, Digest: digest,
					OperationCount: len(list), WarningCount: res.parsed.WarningCount, RawFormat: rawFormat(res.raw)}
				sp.LastVersion, sp.LastDigest = ver.ID, digest
				ops = []store.Op{store.PutIfVersion(records.Item(k, sp, v+1), v),
					store.Put(records.Item(keys.OpenAPIVersion(sp.ID, ver.ID), ver, 1), store.IfNotExists)}
			}
		}
		if err := s.d.Store.Write(ctx, ops...); err != nil {
			return fmt.Errorf("record OpenAPI processing: %w", err)
		}
		s.d.Logger.InfoContext(ctx, "OpenAPI spec processed", "spec", sp.ID, "generation", p.Generation, "errorCode", res.code,
			"warnings", res.parsed.WarningCount, "operations", len(res.parsed.Operations))
		return nil
	})
}

// outcome is what processing a spec's source came to: a parsed document
// with where it came from, or an error code with its reason.
type outcome struct {
	parsed     Parsed
	raw        []byte // the source as read
	name, from string
	code       string
	reason     string
}

func failed(code, reason string) outcome { return outcome{code: code, reason: reason} }

// problems are the spec's lastProcessedErrors: the failure's reason, or
// the document's first warnings.
func (o outcome) problems() []model.OpenAPIProblem {
	if o.code != "" {
		return []model.OpenAPIProblem{{Code: o.code, Message: o.reason}}
	}
	var out []model.OpenAPIProblem
	for i, w := range o.parsed.Warnings {
		if i == model.MaxOpenAPIProblems {
			break
		}
		out = append(out, model.OpenAPIProblem{Code: model.OpenAPIValidationWarning, Message: w})
	}
	return out
}

func (o outcome) problemCount() int {
	if o.code != "" {
		return 1
	}
	return max(o.parsed.WarningCount, len(o.parsed.Warnings))
}

// fetchReason says why a fetch failed, in words safe to show (no URL).
func (s *Service) fetchReason(err error) string {
	var fe *fetch.Error
	if !errors.As(err, &fe) {
		return "the document could not be fetched"
	}
	switch fe.Code {
	case fetch.CodeTimeout:
		return "no complete answer in time"
	case fetch.CodeTooLarge:
		return fmt.Sprintf("the document is larger than the limit of %d bytes", s.MaxDocumentBytes)
	case fetch.CodeStatus:
		return fmt.Sprintf("the server answered HTTP %d", fe.Status)
	case fetch.CodeRefused:
		return "the address is not public"
	case fetch.CodeInvalid:
		return "not an http or https URL"
	}
	return "the document could not be fetched (network, DNS, TLS or redirect error)"
}

// load reads and parses a spec's document. Failing to read a stored text
// (other than its absence) is a storage failure: the job is retried.
func (s *Service) load(ctx context.Context, sp model.OpenAPISpec) (outcome, error) {
	var raw []byte
	var name, from string
	switch {
	case sp.SourceURL != "":
		res, err := fetch.NewWithTimeout(s.d.FetchAllowPrivate, s.FetchTimeout).Fetch(ctx, sp.SourceURL, s.MaxDocumentBytes)
		var fe *fetch.Error
		switch {
		case errors.As(err, &fe) && fe.Code == fetch.CodeTimeout:
			return failed(model.OpenAPIFetchTimeout, s.fetchReason(err)), nil
		case err != nil:
			s.d.Logger.InfoContext(ctx, "OpenAPI fetch failed", "spec", sp.ID, "url", fetch.Redact(sp.SourceURL), "err", err.Error())
			return failed(model.OpenAPIFetchError, s.fetchReason(err)), nil
		}
		raw, from = res.Body, fetch.Redact(sp.SourceURL)
		name = fileName(sp.SourceURL)
	default:
		text, err := s.d.Blobs.Get(ctx, sp.SourceText)
		if errors.Is(err, blob.ErrNotFound) {
			return failed(model.OpenAPIFetchError, "the source text could not be read"), nil
		}
		if err != nil {
			return outcome{}, fmt.Errorf("read OpenAPI source text: %w", err)
		}
		raw, name = text, "openapi."+rawFormat(text)
	}
	if s.parse == nil {
		// An API function without its queue: it cannot process documents.
		return failed(model.OpenAPIParseError, "this server cannot process OpenAPI documents"), nil
	}
	parsed, err := s.parse(ctx, raw)
	if err != nil {
		s.d.Logger.InfoContext(ctx, "OpenAPI parse failed", "spec", sp.ID, "err", err.Error())
		return failed(model.OpenAPIParseError, Truncate(err.Error(), 1000)), nil
	}
	return outcome{parsed: parsed, raw: raw, name: name, from: from}, nil
}

// Truncate cuts s to at most n bytes, on a rune boundary (an ellipsis
// marks the cut): reasons and warnings shown through the API stay short.
func Truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
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

// rawFormat is the format of a source: json when it starts as a JSON
// object does, else yaml (which JSON documents are too, but those start
// with a brace).
func rawFormat(raw []byte) string {
	if t := bytes.TrimSpace(raw); len(t) > 0 && t[0] == '{' {
		return "json"
	}
	return "yaml"
}

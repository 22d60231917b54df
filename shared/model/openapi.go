package model

import "time"

// OpenAPI spec processing states (the reference's OpenAPISpecProcessingState).
const (
	OpenAPIPending  = "pending"
	OpenAPIProgress = "progress"
	OpenAPIComplete = "complete"
)

// OpenAPI spec processing error codes (the reference's
// OpenAPISpecProcessingErrorCode).
const (
	OpenAPIFetchTimeout = "FETCH_TIMEOUT"
	OpenAPIFetchError   = "FETCH_ERROR"
	OpenAPIParseError   = "PARSE_ERROR"
)

// OpenAPISpec is an organization's OpenAPI document, named by its slug: a
// source (a URL, or a text kept in the blob store) that a worker fetches,
// parses and keeps as versions.
type OpenAPISpec struct {
	ID        string    `json:"id"`
	OrgID     string    `json:"orgId"`
	Slug      string    `json:"slug"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
	CreatedBy string    `json:"createdBy"`
	// SourceURL is where the document is fetched from; "" for a text.
	SourceURL string `json:"sourceURL,omitempty"`
	// SourceText is the blob key of a document given as text.
	SourceText      string `json:"sourceText,omitempty"`
	ProcessingState string `json:"processingState"`
	// Generation counts the sources set (creation, then each PUT); a job
	// processes one generation, and only the latest.
	Generation int64 `json:"generation"`
	// Processed is the last generation whose processing ended.
	Processed            int64      `json:"processed"`
	LastVersion          string     `json:"lastVersion,omitempty"`
	LastDigest           string     `json:"lastDigest,omitempty"`
	LastProcessedAt      *time.Time `json:"lastProcessedAt,omitempty"`
	LastProcessErrorCode string     `json:"lastProcessErrorCode,omitempty"`
}

// OpenAPISpecVersion is one parsed document of a spec.
type OpenAPISpecVersion struct {
	ID        string    `json:"id"`
	SpecID    string    `json:"specId"`
	OrgID     string    `json:"orgId"`
	CreatedAt time.Time `json:"createdAt"`
	// URL is where the document came from (a text's: "").
	URL string `json:"url,omitempty"`
	// Name is the document's file name in the version's filesystem.
	Name string `json:"name"`
	// Digest is the SHA-256 of the document as JSON; it names its blob.
	Digest string `json:"digest"`
}

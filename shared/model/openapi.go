package model

import "time"

// OpenAPI spec processing states (the reference's OpenAPISpecProcessingState).
const (
	OpenAPIPending  = "pending"
	OpenAPIProgress = "progress"
	OpenAPIComplete = "complete"
)

// OpenAPI spec visibilities (the reference's OpenAPISpecVisibility).
const (
	OpenAPIPrivate = "private"
	OpenAPIPublic  = "public"
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
	SourceText string `json:"sourceText,omitempty"`
	// Visibility is OpenAPIPublic or OpenAPIPrivate ("" reads as private).
	Visibility      string `json:"visibility,omitempty"`
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
	// LastProcessedErrors are the last processing's problems, at most
	// MaxOpenAPIProblems: the failure's reason (code as
	// LastProcessErrorCode) when it failed, else the document's validation
	// problems (code OpenAPIValidationWarning), which did not stop it.
	LastProcessedErrors []OpenAPIProblem `json:"lastProcessedErrors,omitempty"`
	// LastProcessedErrorCount counts them all, before truncation.
	LastProcessedErrorCount int `json:"lastProcessedErrorCount,omitempty"`
	// Lease bounds the processing of the current generation: set when a
	// job is handed out (pending) and when a worker starts it (progress),
	// cleared by its outcome. Past Until with no outcome, the job is
	// handed out again (docs/faults.md, "Jobs killed mid-way").
	Lease *JobLease `json:"lease,omitempty"`
}

// MaxOpenAPIProblems bounds the problems kept of one processing.
const MaxOpenAPIProblems = 100

// OpenAPIValidationWarning is the code of a validation problem that did
// not stop the processing of a document (the reference's
// OpenAPIErrorObject.code is free-form).
const OpenAPIValidationWarning = "VALIDATION_WARNING"

// OpenAPIProblem is a problem met processing a document (the reference's
// OpenAPIErrorObject).
type OpenAPIProblem struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// OpenAPIOperation is an operation of a document (the reference's
// OpenAPIOperationPointer): its path and its method, lower case, and its
// tags (computed API reference pages group operations by their first tag;
// versions processed before tags were recorded have none).
type OpenAPIOperation struct {
	Path   string   `json:"path"`
	Method string   `json:"method"`
	Tags   []string `json:"tags,omitempty"`
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
	// OperationCount is how many operations the document has (the list
	// is a blob of its own, by digest).
	OperationCount int `json:"operationCount,omitempty"`
	// WarningCount is how many validation problems the document has.
	WarningCount int `json:"warningCount,omitempty"`
	// RawFormat is the format of the source as it was read ("json" or
	// "yaml"), kept beside the document by digest; "" for versions made
	// before sources were kept, which have no raw content.
	RawFormat string `json:"rawFormat,omitempty"`
}

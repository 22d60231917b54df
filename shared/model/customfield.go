package model

import (
	"encoding/json"
	"time"
)

// Custom field types (the reference's CustomFieldType).
const (
	FieldText         = "text"
	FieldNumber       = "number"
	FieldBoolean      = "boolean"
	FieldTags         = "tags"
	FieldSelectMulti  = "select:multi"
	FieldSelectSingle = "select:single"
)

// CustomField is an organization's definition of a metadata field of its
// spaces. Its name and type never change; its id is never reused, so values
// of a deleted field never attach to a new one of the same name.
type CustomField struct {
	ID          string    `json:"id"`
	OrgID       string    `json:"orgId"`
	Name        string    `json:"name"`
	Type        string    `json:"type"`
	Title       string    `json:"title"`
	Description string    `json:"description"`
	Placeholder string    `json:"placeholder"`
	Options     []string  `json:"options,omitempty"`
	CreatedAt   time.Time `json:"createdAt"`
	UpdatedAt   time.Time `json:"updatedAt"`
}

// CustomFieldValue is a space's value of one custom field.
type CustomFieldValue struct {
	SpaceID   string          `json:"spaceId"`
	FieldID   string          `json:"fieldId"`
	Value     json.RawMessage `json:"value"`
	UpdatedAt time.Time       `json:"updatedAt"`
}

package scim

import "github.com/galleydocs/galley/shared/apperr"

type obj = map[string]any

func meta(kind, location string) obj { return obj{"resourceType": kind, "location": location} }

// ServiceProviderConfig is what Galley's SCIM supports (RFC 7643 §5).
func ServiceProviderConfig(base string) obj {
	no := obj{"supported": false}
	return obj{
		"schemas":          []string{configSchema},
		"documentationUri": "https://github.com/galleydocs/galley/blob/main/docs/scim.md",
		"patch":            obj{"supported": true},
		"bulk":             obj{"supported": false, "maxOperations": 0, "maxPayloadSize": 0},
		"filter":           obj{"supported": true, "maxResults": MaxCount},
		"changePassword":   no, "sort": no, "etag": no,
		"authenticationSchemes": []obj{{"type": "oauthbearertoken", "name": "OAuth Bearer Token",
			"description": "A SCIM token of the organization: Authorization: Bearer <token>", "primary": true}},
		"meta": meta("ServiceProviderConfig", base+"/ServiceProviderConfig"),
	}
}

// ResourceTypes are Users and Groups (RFC 7643 §6).
func ResourceTypes(base string) []obj {
	return []obj{
		{"schemas": []string{typeSchema}, "id": "User", "name": "User", "endpoint": "/Users", "description": "Members of the organization",
			"schema": UserSchema, "meta": meta("ResourceType", base+"/ResourceTypes/User")},
		{"schemas": []string{typeSchema}, "id": "Group", "name": "Group", "endpoint": "/Groups", "description": "Teams of the organization",
			"schema": GroupSchema, "meta": meta("ResourceType", base+"/ResourceTypes/Group")},
	}
}

func attr(name, typ, mutability, returned, uniqueness string, required, multi, caseExact bool, sub ...obj) obj {
	a := obj{"name": name, "type": typ, "multiValued": multi, "description": name, "required": required, "caseExact": caseExact,
		"mutability": mutability, "returned": returned, "uniqueness": uniqueness}
	if len(sub) > 0 {
		a["subAttributes"] = sub
	}
	return a
}

// refTo gives a reference attribute the resource types it refers to.
func refTo(a obj, types ...string) obj {
	a["referenceTypes"] = types
	return a
}

// canonicalValues gives an attribute its canonical values.
func canonicalValues(a obj, values ...string) obj {
	a["canonicalValues"] = values
	return a
}

// Schemas are the attributes Galley keeps of Users and Groups (RFC 7643
// §7): what a request gives beyond them is ignored.
func Schemas(base string) []obj {
	rw, ro, def, none := "readWrite", "readOnly", "default", "none"
	return []obj{
		{"schemas": []string{schemaSchema}, "id": UserSchema, "name": "User", "description": "A member of the organization",
			"attributes": []obj{
				attr("userName", "string", rw, def, "server", true, false, false),
				attr("name", "complex", rw, def, none, false, false, false,
					attr("formatted", "string", rw, def, none, false, false, false),
					attr("familyName", "string", rw, def, none, false, false, false),
					attr("givenName", "string", rw, def, none, false, false, false)),
				attr("displayName", "string", rw, def, none, false, false, false),
				// Required: a Galley user is an email address (a userName
				// that is one is accepted alone too, docs/scim.md).
				attr("emails", "complex", rw, def, none, true, true, false,
					attr("value", "string", rw, def, none, true, false, false),
					attr("type", "string", rw, def, none, false, false, false),
					attr("primary", "boolean", rw, def, none, false, false, false)),
				attr("active", "boolean", rw, def, none, false, false, false),
				attr("groups", "complex", ro, def, none, false, true, false,
					attr("value", "string", ro, def, none, false, false, false),
					refTo(attr("$ref", "reference", ro, def, none, false, false, false), "Group"),
					attr("display", "string", ro, def, none, false, false, false),
					canonicalValues(attr("type", "string", ro, def, none, false, false, false), "direct")),
			},
			"meta": meta("Schema", base+"/Schemas/"+UserSchema)},
		{"schemas": []string{schemaSchema}, "id": GroupSchema, "name": "Group", "description": "A team of the organization",
			"attributes": []obj{
				attr("displayName", "string", rw, def, none, true, false, false),
				attr("members", "complex", rw, def, none, false, true, false,
					attr("value", "string", "immutable", def, none, false, false, false),
					refTo(attr("$ref", "reference", "immutable", def, none, false, false, false), "User"),
					attr("display", "string", ro, def, none, false, false, false),
					canonicalValues(attr("type", "string", "immutable", def, none, false, false, false), "User")),
			},
			"meta": meta("Schema", base+"/Schemas/"+GroupSchema)},
	}
}

// Find returns the item of list whose id is id (NotFound otherwise).
func Find(list []obj, id string) (obj, error) {
	for _, o := range list {
		if o["id"] == id {
			return o, nil
		}
	}
	return nil, apperr.NotFoundf("%s not found", id)
}

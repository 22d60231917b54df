package sso

import (
	"testing"

	"github.com/crewjam/saml"
)

// Keycloak's predefined SAML mappers ("X500 email", "X500 givenName",
// "X500 surname") name the attributes by OID, the email one by PKCS #9's
// emailAddress (1.2.840.113549.1.9.1); a customer may drop the friendly
// names. With a NameID that is no address (Keycloak's persistent or
// unspecified formats), the email address comes from that attribute.
func TestSubjectReadsKeycloakX500Attributes(t *testing.T) {
	attr := func(name, friendly, value string) saml.Attribute {
		return saml.Attribute{Name: name, FriendlyName: friendly, NameFormat: "urn:oasis:names:tc:SAML:2.0:attrname-format:uri",
			Values: []saml.AttributeValue{{Type: "xs:string", Value: value}}}
	}
	for _, tc := range []struct {
		name     string
		friendly bool
	}{{"WithFriendlyNames", true}, {"OIDsOnly", false}} {
		t.Run(tc.name, func(t *testing.T) {
			fn := func(s string) string {
				if tc.friendly {
					return s
				}
				return ""
			}
			a := &saml.Assertion{
				Subject: &saml.Subject{NameID: &saml.NameID{Format: "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent",
					Value: "G-5d1d2c61-8a1b-4bbd-b2a1-6f0e4c2b8a11"}},
				AttributeStatements: []saml.AttributeStatement{{Attributes: []saml.Attribute{
					attr("urn:oid:1.2.840.113549.1.9.1", fn("email"), "Ada@Analytical.example"),
					attr("urn:oid:2.5.4.42", fn("givenName"), "Ada"),
					attr("urn:oid:2.5.4.4", fn("surname"), "Lovelace"),
					attr("groups", "", "Engineers"),
				}}},
			}
			email, name, err := subject(a)
			if err != nil || email != "ada@analytical.example" || name != "Ada Lovelace" {
				t.Errorf("subject = %q, %q, %v; want ada@analytical.example, Ada Lovelace", email, name, err)
			}
		})
	}
}

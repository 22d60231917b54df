package sso_test

import (
	"crypto"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/xml"
	"net/http"
	"strings"
	"testing"

	"github.com/beevik/etree"
	"github.com/crewjam/saml"
	dsig "github.com/russellhaering/goxmldsig"
)

// encryptAssertion replaces the signed assertion of a response with an
// EncryptedAssertion as current identity providers make it (Keycloak 26 by
// default): AES-GCM for the data, RSA-OAEP (XML Encryption 1.1) for the
// key, with the digest and mask generation given.
func encryptAssertion(t *testing.T, response string, idpKey *rsa.PrivateKey, idpCert *x509.Certificate, pub *rsa.PublicKey, data string, keySize int, digest, mgf crypto.Hash, digestURI, mgfURI string) string {
	t.Helper()
	raw, err := base64.StdEncoding.DecodeString(response)
	if err != nil {
		t.Fatal(err)
	}
	doc := etree.NewDocument()
	if err := doc.ReadFromBytes(raw); err != nil {
		t.Fatal(err)
	}
	assertion := doc.FindElement("//Assertion")
	if assertion == nil {
		t.Fatalf("no assertion in %s", raw)
	}
	// The assertion alone, with the namespace declarations it inherits.
	alone := assertion.Copy()
	for _, a := range doc.Root().Attr {
		if (a.Space == "xmlns" || a.Key == "xmlns") && alone.SelectAttr(a.FullKey()) == nil {
			alone.CreateAttr(a.FullKey(), a.Value)
		}
	}
	adoc := etree.NewDocument()
	adoc.SetRoot(alone)
	plain, err := adoc.WriteToBytes()
	if err != nil {
		t.Fatal(err)
	}
	key := make([]byte, keySize)
	rand.Read(key)
	block, _ := aes.NewCipher(key)
	aead, _ := cipher.NewGCM(block)
	nonce := make([]byte, aead.NonceSize())
	rand.Read(nonce)
	sealed := append(nonce, aead.Seal(nil, nonce, plain, nil)...)
	wrapped, err := rsa.EncryptOAEPWithOptions(rand.Reader, pub, key, &rsa.OAEPOptions{Hash: digest, MGFHash: mgf})
	if err != nil {
		t.Fatal(err)
	}

	ea := etree.NewElement("saml:EncryptedAssertion")
	ea.CreateAttr("xmlns:saml", "urn:oasis:names:tc:SAML:2.0:assertion")
	ed := ea.CreateElement("xenc:EncryptedData")
	ed.CreateAttr("xmlns:xenc", "http://www.w3.org/2001/04/xmlenc#")
	ed.CreateAttr("Type", "http://www.w3.org/2001/04/xmlenc#Element")
	ed.CreateElement("xenc:EncryptionMethod").CreateAttr("Algorithm", data)
	ki := ed.CreateElement("ds:KeyInfo")
	ki.CreateAttr("xmlns:ds", "http://www.w3.org/2000/09/xmldsig#")
	ek := ki.CreateElement("xenc:EncryptedKey")
	em := ek.CreateElement("xenc:EncryptionMethod")
	em.CreateAttr("Algorithm", "http://www.w3.org/2009/xmlenc11#rsa-oaep")
	if digestURI != "" {
		em.CreateElement("ds:DigestMethod").CreateAttr("Algorithm", digestURI)
	}
	if mgfURI != "" {
		m := em.CreateElement("xenc11:MGF")
		m.CreateAttr("xmlns:xenc11", "http://www.w3.org/2009/xmlenc11#")
		m.CreateAttr("Algorithm", mgfURI)
	}
	ek.CreateElement("xenc:CipherData").CreateElement("xenc:CipherValue").SetText(base64.StdEncoding.EncodeToString(wrapped))
	ed.CreateElement("xenc:CipherData").CreateElement("xenc:CipherValue").SetText(base64.StdEncoding.EncodeToString(sealed))

	parent := assertion.Parent()
	parent.InsertChildAt(assertion.Index(), ea)
	parent.RemoveChild(assertion)

	// The IdP signs the response too: sign it again as it would have,
	// the signature after the Issuer.
	root := doc.Root()
	for _, sig := range root.SelectElements("Signature") {
		root.RemoveChild(sig)
	}
	ks := dsig.TLSCertKeyStore(tls.Certificate{Certificate: [][]byte{idpCert.Raw}, PrivateKey: idpKey})
	sc := dsig.NewDefaultSigningContext(ks)
	sc.Canonicalizer = dsig.MakeC14N10ExclusiveCanonicalizerWithPrefixList("")
	if err := sc.SetSignatureMethod(dsig.RSASHA256SignatureMethod); err != nil {
		t.Fatal(err)
	}
	signed, err := sc.SignEnveloped(root)
	if err != nil {
		t.Fatal(err)
	}
	// goxmldsig appends the signature without setting its parent, so it is
	// moved by rebuilding the children.
	sig := signed.SelectElement("Signature")
	var kept []etree.Token
	for _, c := range signed.Child {
		if c != etree.Token(sig) {
			kept = append(kept, c)
		}
	}
	signed.Child = kept
	signed.InsertChildAt(signed.SelectElement("Issuer").Index()+1, sig)
	doc.SetRoot(signed)
	out, err := doc.WriteToBytes()
	if err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(out)
}

// spEncryptionKey reads the public key Galley's metadata gives for
// encryption, and the algorithms it advertises.
func spEncryptionKey(t *testing.T, f *fixture, metadataURL string) (*rsa.PublicKey, []string) {
	t.Helper()
	md := f.as(t, "").Expect(http.StatusOK, "GET", u(metadataURL), nil).Body
	var ed saml.EntityDescriptor
	if err := xml.Unmarshal(md, &ed); err != nil {
		t.Fatal(err)
	}
	for _, kd := range ed.SPSSODescriptors[0].KeyDescriptors {
		if kd.Use != "encryption" {
			continue
		}
		der, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(kd.KeyInfo.X509Data.X509Certificates[0].Data), ""))
		if err != nil {
			t.Fatal(err)
		}
		c, err := x509.ParseCertificate(der)
		if err != nil {
			t.Fatal(err)
		}
		var algs []string
		for _, m := range kd.EncryptionMethods {
			algs = append(algs, m.Algorithm)
		}
		return c.PublicKey.(*rsa.PublicKey), algs
	}
	t.Fatalf("no encryption key in the metadata: %s", md)
	return nil, nil
}

// Assertions encrypted as current identity providers do (AES-GCM, RSA-OAEP
// 1.1 with SHA-256 digests, MGF1 with SHA-1 or SHA-256) sign in; the
// metadata advertises those algorithms first; a display name the IdP
// changes is kept in step.
func TestCurrentIdPEncryptionSignsIn(t *testing.T) {
	f := setup(t)
	p := newIdP(t, f)
	p.plain = true
	pr := p.provider(t, f, nil)
	pub, algs := spEncryptionKey(t, f, pr["service"].(map[string]any)["entityID"].(string))
	if len(algs) < 2 || algs[0] != "http://www.w3.org/2009/xmlenc11#aes256-gcm" || !strings.Contains(strings.Join(algs, " "), "xmlenc11#rsa-oaep") {
		t.Fatalf("metadata advertises %v; want AES-256-GCM first and RSA-OAEP 1.1", algs)
	}
	const sha256URI, sha1MGF, sha256MGF = "http://www.w3.org/2001/04/xmlenc#sha256", "http://www.w3.org/2009/xmlenc11#mgf1sha1", "http://www.w3.org/2009/xmlenc11#mgf1sha256"
	for i, c := range []struct {
		name              string
		data              string
		size              int
		digest, mgf       crypto.Hash
		digestURI, mgfURI string
	}{
		{"AES-256-GCM, RSA-OAEP SHA-256, no MGF element (MGF1 SHA-1)", "http://www.w3.org/2009/xmlenc11#aes256-gcm", 32, crypto.SHA256, crypto.SHA1, sha256URI, ""},
		// What Keycloak 26.7.3 sends by default (TestKeycloakSignIn sees it).
		{"Keycloak: AES-256-GCM, RSA-OAEP SHA-256, MGF1 SHA-256", "http://www.w3.org/2009/xmlenc11#aes256-gcm", 32, crypto.SHA256, crypto.SHA256, sha256URI, sha256MGF},
		{"AES-128-GCM, RSA-OAEP SHA-1, MGF1 SHA-1 named", "http://www.w3.org/2009/xmlenc11#aes128-gcm", 16, crypto.SHA1, crypto.SHA1, "", sha1MGF},
	} {
		t.Run(c.name, func(t *testing.T) {
			p.mu.Lock()
			p.name = []string{"Ada Lovelace", "Ada King", "Countess Ada"}[i]
			p.mu.Unlock()
			response, acs := p.signIn(t, f, startURL(pr))
			enc := encryptAssertion(t, response, p.idp.Key.(*rsa.PrivateKey), p.idp.Certificate, pub, c.data, c.size, c.digest, c.mgf, c.digestURI, c.mgfURI)
			tok := tokenOf(t, post(t, f, acs, enc, http.StatusOK))
			me := f.as(t, tok).Expect(http.StatusOK, "GET", "/v1/user", nil).Map(t)
			if me["email"] != "newbie@idp.test" || me["displayName"] != p.name {
				t.Errorf("signed in as %v; want newbie@idp.test named %q (kept in step with the IdP)", me, p.name)
			}
		})
	}
	// A wrong digest (the key was wrapped with SHA-256, the element says
	// SHA-1) is refused, not a server error.
	response, acs := p.signIn(t, f, startURL(pr))
	enc := encryptAssertion(t, response, p.idp.Key.(*rsa.PrivateKey), p.idp.Certificate, pub, "http://www.w3.org/2009/xmlenc11#aes256-gcm", 32, crypto.SHA256, crypto.SHA1, "http://www.w3.org/2000/09/xmldsig#sha1", "")
	post(t, f, acs, enc, http.StatusUnauthorized)
}

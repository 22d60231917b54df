package sso_test

import (
	"bytes"
	"crypto"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/xml"
	"fmt"
	"math/big"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/beevik/etree"
	"github.com/crewjam/saml"
	dsig "github.com/russellhaering/goxmldsig"
)

// transport is how a test identity provider wraps the assertion's key:
// the EncryptedKey's algorithm and the elements it names, and the wrapping
// itself (which a test may make disagree with the elements).
type transport struct {
	algorithm         string
	digestURI, mgfURI string // DigestMethod and MGF elements, when not ""
	oaepParams        []byte // OAEPparams, when not nil
	wrap              func(t *testing.T, pub *rsa.PublicKey, key []byte) []byte
	// beside puts the EncryptedKey beside the EncryptedData, in the
	// EncryptedAssertion, rather than in the EncryptedData's KeyInfo (as
	// Keycloak does); SAML allows both.
	beside bool
}

// Key transport URIs (XML Encryption 1.1).
const (
	rsaOAEP11    = "http://www.w3.org/2009/xmlenc11#rsa-oaep"
	rsaOAEPMGF1P = "http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p"
	rsaV15       = "http://www.w3.org/2001/04/xmlenc#rsa-1_5"
	sha1URI      = "http://www.w3.org/2000/09/xmldsig#sha1"
	sha256URI    = "http://www.w3.org/2001/04/xmlenc#sha256"
	sha512URI    = "http://www.w3.org/2001/04/xmlenc#sha512"
	mgf1SHA1     = "http://www.w3.org/2009/xmlenc11#mgf1sha1"
	mgf1SHA256   = "http://www.w3.org/2009/xmlenc11#mgf1sha256"
	mgf1SHA512   = "http://www.w3.org/2009/xmlenc11#mgf1sha512"
	aes256GCM    = "http://www.w3.org/2009/xmlenc11#aes256-gcm"
	aes128GCM    = "http://www.w3.org/2009/xmlenc11#aes128-gcm"
	aes128CBC    = "http://www.w3.org/2001/04/xmlenc#aes128-cbc"
	aes256CBC    = "http://www.w3.org/2001/04/xmlenc#aes256-cbc"
)

// oaep wraps with RSA-OAEP, the digest, MGF1's hash and the label given.
func oaep(digest, mgf crypto.Hash, label []byte) func(*testing.T, *rsa.PublicKey, []byte) []byte {
	return func(t *testing.T, pub *rsa.PublicKey, key []byte) []byte {
		w, err := rsa.EncryptOAEPWithOptions(rand.Reader, pub, key, &rsa.OAEPOptions{Hash: digest, MGFHash: mgf, Label: label})
		if err != nil {
			t.Fatal(err)
		}
		return w
	}
}

// pkcs1v15 wraps with RSA PKCS#1 v1.5.
func pkcs1v15(t *testing.T, pub *rsa.PublicKey, key []byte) []byte {
	w, err := rsa.EncryptPKCS1v15(rand.Reader, pub, key)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// encryptAssertion replaces the signed assertion of a response with an
// EncryptedAssertion as identity providers make it: the data encrypted
// with AES-GCM or AES-CBC (data, its key keySize bytes), the key wrapped as
// kt says; then signs the response again.
func encryptAssertion(t *testing.T, response string, idpKey *rsa.PrivateKey, idpCert *x509.Certificate, pub *rsa.PublicKey, data string, keySize int, kt transport) string {
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
	var sealed []byte
	if strings.HasSuffix(data, "-gcm") {
		aead, _ := cipher.NewGCM(block)
		nonce := make([]byte, aead.NonceSize())
		rand.Read(nonce)
		sealed = append(nonce, aead.Seal(nil, nonce, plain, nil)...)
	} else {
		n := aes.BlockSize - len(plain)%aes.BlockSize
		padded := append(plain, bytes.Repeat([]byte{byte(n)}, n)...)
		sealed = make([]byte, aes.BlockSize+len(padded))
		rand.Read(sealed[:aes.BlockSize])
		cipher.NewCBCEncrypter(block, sealed[:aes.BlockSize]).CryptBlocks(sealed[aes.BlockSize:], padded)
	}
	wrapped := kt.wrap(t, pub, key)

	ea := etree.NewElement("saml:EncryptedAssertion")
	ea.CreateAttr("xmlns:saml", "urn:oasis:names:tc:SAML:2.0:assertion")
	ed := ea.CreateElement("xenc:EncryptedData")
	ed.CreateAttr("xmlns:xenc", "http://www.w3.org/2001/04/xmlenc#")
	ed.CreateAttr("Type", "http://www.w3.org/2001/04/xmlenc#Element")
	ed.CreateElement("xenc:EncryptionMethod").CreateAttr("Algorithm", data)
	var ek *etree.Element
	if kt.beside {
		ek = ea.CreateElement("xenc:EncryptedKey")
		ek.CreateAttr("xmlns:xenc", "http://www.w3.org/2001/04/xmlenc#")
	} else {
		ki := ed.CreateElement("ds:KeyInfo")
		ki.CreateAttr("xmlns:ds", "http://www.w3.org/2000/09/xmldsig#")
		ek = ki.CreateElement("xenc:EncryptedKey")
	}
	em := ek.CreateElement("xenc:EncryptionMethod")
	em.CreateAttr("Algorithm", kt.algorithm)
	if kt.digestURI != "" {
		dm := em.CreateElement("ds:DigestMethod")
		dm.CreateAttr("xmlns:ds", "http://www.w3.org/2000/09/xmldsig#")
		dm.CreateAttr("Algorithm", kt.digestURI)
	}
	if kt.mgfURI != "" {
		m := em.CreateElement("xenc11:MGF")
		m.CreateAttr("xmlns:xenc11", "http://www.w3.org/2009/xmlenc11#")
		m.CreateAttr("Algorithm", kt.mgfURI)
	}
	if kt.oaepParams != nil {
		em.CreateElement("xenc:OAEPparams").SetText(base64.StdEncoding.EncodeToString(kt.oaepParams))
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

// plainProvider is an IdP that signs its responses without encrypting
// them (the tests encrypt), and its provider in Galley.
func plainProvider(t *testing.T, f *fixture) (*idp, map[string]any) {
	t.Helper()
	p := newIdP(t, f)
	p.plain = true
	return p, p.provider(t, f, nil)
}

// spEncryptionKey reads the public key the provider's metadata in Galley
// gives for encryption, and the algorithms it advertises.
func spEncryptionKey(t *testing.T, f *fixture, pr map[string]any) (*rsa.PublicKey, []string) {
	t.Helper()
	md := f.With(t, "").Expect(http.StatusOK, "GET", u(pr["service"].(map[string]any)["entityID"].(string)), nil).Body
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

// encryptedSignIn signs in at the provider's start URL and encrypts the
// assertion of the IdP's response as given; it returns the response to post
// and where.
func encryptedSignIn(t *testing.T, f *fixture, p *idp, pr map[string]any, pub *rsa.PublicKey, data string, keySize int, kt transport) (string, string) {
	t.Helper()
	response, acs := p.signIn(t, f, startURL(pr))
	return encryptAssertion(t, response, p.idp.Key.(*rsa.PrivateKey), p.idp.Certificate, pub, data, keySize, kt), acs
}

// Assertions whose key is wrapped with RSA-OAEP sign in, with each digest
// (SHA-1, SHA-256, SHA-512) under both algorithm URIs: 2001's mgf1p, whose
// mask generation is MGF1 with SHA-1 whatever the digest (with or without
// an MGF element naming it, as Keycloak sends one), and 1.1's rsa-oaep with
// each MGF1 hash its MGF element names (none: SHA-1); with a label
// (OAEPparams) too. The metadata advertises AES-256-GCM first and both
// RSA-OAEP URIs; a display name the IdP changes is kept in step.
func TestRSAOAEPSignsIn(t *testing.T) {
	f := setup(t)
	p, pr := plainProvider(t, f)
	pub, algs := spEncryptionKey(t, f, pr)
	if len(algs) < 2 || algs[0] != aes256GCM || !slices.Contains(algs, rsaOAEP11) || !slices.Contains(algs, rsaOAEPMGF1P) || slices.Contains(algs, rsaV15) {
		t.Fatalf("metadata advertises %v; want AES-256-GCM first, both RSA-OAEP, not RSA PKCS#1 v1.5", algs)
	}
	type digest struct {
		uri  string // "" : no DigestMethod element (SHA-1)
		hash crypto.Hash
	}
	digests := []digest{{"", crypto.SHA1}, {sha1URI, crypto.SHA1}, {sha256URI, crypto.SHA256}, {sha512URI, crypto.SHA512}}
	type tc struct {
		name     string
		data     string
		size     int
		kt       transport
		wantName string
	}
	var cases []tc
	for _, d := range digests {
		short := strings.TrimPrefix(d.hash.String(), "SHA-")
		if d.uri == "" {
			short += " (no DigestMethod)"
		}
		cases = append(cases,
			tc{name: "mgf1p digest SHA-" + short, data: aes256GCM, size: 32,
				kt: transport{algorithm: rsaOAEPMGF1P, digestURI: d.uri, wrap: oaep(d.hash, crypto.SHA1, nil)}},
			tc{name: "mgf1p digest SHA-" + short + ", MGF element mgf1sha1", data: aes128GCM, size: 16,
				kt: transport{algorithm: rsaOAEPMGF1P, digestURI: d.uri, mgfURI: mgf1SHA1, wrap: oaep(d.hash, crypto.SHA1, nil)}})
		for _, m := range []struct {
			uri  string
			hash crypto.Hash
		}{{"", crypto.SHA1}, {mgf1SHA1, crypto.SHA1}, {mgf1SHA256, crypto.SHA256}, {mgf1SHA512, crypto.SHA512}} {
			mgf := "MGF " + strings.TrimPrefix(m.uri, "http://www.w3.org/2009/xmlenc11#")
			if m.uri == "" {
				mgf = "no MGF (MGF1 SHA-1)"
			}
			cases = append(cases, tc{name: "rsa-oaep 1.1 digest SHA-" + short + ", " + mgf, data: aes256GCM, size: 32,
				kt: transport{algorithm: rsaOAEP11, digestURI: d.uri, mgfURI: m.uri, wrap: oaep(d.hash, m.hash, nil)}})
		}
	}
	label := []byte("galley label")
	cases = append(cases,
		tc{name: "rsa-oaep 1.1 SHA-256, MGF1 SHA-256, OAEPparams", data: aes256GCM, size: 32,
			kt: transport{algorithm: rsaOAEP11, digestURI: sha256URI, mgfURI: mgf1SHA256, oaepParams: label, wrap: oaep(crypto.SHA256, crypto.SHA256, label)}},
		tc{name: "mgf1p SHA-512, OAEPparams, key beside the data, AES-256-CBC", data: aes256CBC, size: 32,
			kt: transport{algorithm: rsaOAEPMGF1P, digestURI: sha512URI, oaepParams: label, beside: true, wrap: oaep(crypto.SHA512, crypto.SHA1, label)}})
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			name := fmt.Sprintf("Ada %d", i)
			p.mu.Lock()
			p.name = name
			p.mu.Unlock()
			enc, acs := encryptedSignIn(t, f, p, pr, pub, c.data, c.size, c.kt)
			tok := tokenOf(t, post(t, f, acs, enc, http.StatusOK))
			me := f.With(t, tok).Expect(http.StatusOK, "GET", "/v1/user", nil).Map(t)
			if me["email"] != "newbie@idp.test" || me["displayName"] != name {
				t.Errorf("signed in as %v; want newbie@idp.test named %q (kept in step with the IdP)", me, name)
			}
		})
	}
}

// A key wrapped otherwise than the EncryptedKey says is refused (401, the
// reason in the answer), never a server error.
func TestRSAOAEPMismatchesAreRefused(t *testing.T) {
	f := setup(t)
	p, pr := plainProvider(t, f)
	pub, _ := spEncryptionKey(t, f, pr)
	for _, c := range []struct {
		name string
		kt   transport
		want string
	}{
		{"digest SHA-1 named, SHA-256 used", transport{algorithm: rsaOAEP11, digestURI: sha1URI, wrap: oaep(crypto.SHA256, crypto.SHA1, nil)}, "decryption error"},
		{"mgf1p with MGF1 SHA-256 used for the mask", transport{algorithm: rsaOAEPMGF1P, digestURI: sha256URI, wrap: oaep(crypto.SHA256, crypto.SHA256, nil)}, "decryption error"},
		{"mgf1p naming MGF1 SHA-256", transport{algorithm: rsaOAEPMGF1P, digestURI: sha256URI, mgfURI: mgf1SHA256, wrap: oaep(crypto.SHA256, crypto.SHA256, nil)}, "uses MGF1 with SHA-1"},
		{"rsa-oaep 1.1 without MGF element, MGF1 SHA-256 used", transport{algorithm: rsaOAEP11, digestURI: sha256URI, wrap: oaep(crypto.SHA256, crypto.SHA256, nil)}, "decryption error"},
		{"a digest URI no specification gives", transport{algorithm: rsaOAEPMGF1P, digestURI: "http://www.w3.org/2000/09/xmldsig#sha256", wrap: oaep(crypto.SHA256, crypto.SHA1, nil)}, "not supported"},
		{"OAEPparams named, no label used", transport{algorithm: rsaOAEP11, oaepParams: []byte("x"), wrap: oaep(crypto.SHA1, crypto.SHA1, nil)}, "decryption error"},
	} {
		t.Run(c.name, func(t *testing.T) {
			enc, acs := encryptedSignIn(t, f, p, pr, pub, aes256GCM, 32, c.kt)
			if body := post(t, f, acs, enc, http.StatusUnauthorized); !strings.Contains(string(body), c.want) {
				t.Errorf("refused with %s; want the reason %q", body, c.want)
			}
		})
	}
}

// badPadding wraps the key in a block of type 1 (signature padding) rather
// than 2, with textbook RSA: well formed, but no PKCS#1 v1.5 encryption.
func badPadding(_ *testing.T, pub *rsa.PublicKey, key []byte) []byte {
	k := pub.Size()
	em := make([]byte, k)
	em[1] = 1
	for i := 2; i < k-len(key)-1; i++ {
		em[i] = 0xff
	}
	copy(em[k-len(key):], key)
	c := new(big.Int).Exp(new(big.Int).SetBytes(em), big.NewInt(int64(pub.E)), pub.N)
	return c.FillBytes(make([]byte, k))
}

// RSA PKCS#1 v1.5 key transport is refused by default, with a message
// naming the algorithm and the provider's setting that allows it; allowed
// (allowRSA15KeyTransport, on create or PATCH), it signs in, with the key
// in the data's KeyInfo or beside it, for GCM and CBC data. Allowed, a bad
// padding, a key of the wrong length and a wrong key are refused with the
// same answer: nothing tells a bad padding (Bleichenbacher's oracle).
// null sets the setting back to false.
func TestRSA15KeyTransport(t *testing.T) {
	f := setup(t)
	p, pr := plainProvider(t, f)
	if pr["allowRSA15KeyTransport"] != false {
		t.Fatalf("a new provider has allowRSA15KeyTransport %v, want false", pr["allowRSA15KeyTransport"])
	}
	pub, _ := spEncryptionKey(t, f, pr)
	v15 := transport{algorithm: rsaV15, wrap: pkcs1v15}

	enc, acs := encryptedSignIn(t, f, p, pr, pub, aes256GCM, 32, v15)
	body := string(post(t, f, acs, enc, http.StatusUnauthorized))
	for _, want := range []string{rsaV15, "PKCS#1 v1.5", "padding-oracle", "RSA-OAEP", "allowRSA15KeyTransport"} {
		if !strings.Contains(body, want) {
			t.Errorf("the refusal of rsa-1_5 does not say %q: %s", want, body)
		}
	}

	one := u(pr["urls"].(map[string]any)["location"].(string))
	if v := f.With(t, f.admin).Expect(http.StatusOK, "PATCH", one, map[string]any{"allowRSA15KeyTransport": true}).Map(t); v["allowRSA15KeyTransport"] != true {
		t.Fatalf("after PATCH allowRSA15KeyTransport true: %v", v["allowRSA15KeyTransport"])
	}
	for _, c := range []struct {
		name   string
		data   string
		size   int
		beside bool
	}{
		{"AES-256-GCM, key in KeyInfo", aes256GCM, 32, false},
		{"AES-128-GCM, key beside", aes128GCM, 16, true},
		{"AES-128-CBC, key in KeyInfo", aes128CBC, 16, false},
		{"AES-256-CBC, key beside", aes256CBC, 32, true},
	} {
		t.Run("allowed "+c.name, func(t *testing.T) {
			kt := v15
			kt.beside = c.beside
			enc, acs := encryptedSignIn(t, f, p, pr, pub, c.data, c.size, kt)
			tokenOf(t, post(t, f, acs, enc, http.StatusOK))
		})
	}

	t.Run("allowed, failures alike", func(t *testing.T) {
		other := make([]byte, 32)
		rand.Read(other)
		answers := map[string]string{}
		for name, wrap := range map[string]func(*testing.T, *rsa.PublicKey, []byte) []byte{
			"bad padding":  badPadding,
			"wrong length": func(t *testing.T, pub *rsa.PublicKey, key []byte) []byte { return pkcs1v15(t, pub, key[:16]) },
			"wrong key":    func(t *testing.T, pub *rsa.PublicKey, _ []byte) []byte { return pkcs1v15(t, pub, other) },
		} {
			enc, acs := encryptedSignIn(t, f, p, pr, pub, aes256GCM, 32, transport{algorithm: rsaV15, wrap: wrap})
			answers[name] = string(post(t, f, acs, enc, http.StatusUnauthorized))
		}
		if answers["bad padding"] != answers["wrong key"] || answers["wrong length"] != answers["wrong key"] {
			t.Errorf("the answers tell the failures apart: %q", answers)
		}
	})

	if v := f.With(t, f.admin).Expect(http.StatusOK, "PATCH", one, map[string]any{"allowRSA15KeyTransport": nil}).Map(t); v["allowRSA15KeyTransport"] != false {
		t.Fatalf("after PATCH allowRSA15KeyTransport null: %v, want false", v["allowRSA15KeyTransport"])
	}
	enc, acs = encryptedSignIn(t, f, p, pr, pub, aes256GCM, 32, v15)
	post(t, f, acs, enc, http.StatusUnauthorized)

	// Allowed from the start.
	allowed := f.create(t, map[string]any{"label": "Legacy IdP", "entityID": p.idp.MetadataURL.String(), "certificate": p.cert,
		"ssoURL": p.idp.SSOURL.String(), "allowRSA15KeyTransport": true})
	if allowed["allowRSA15KeyTransport"] != true {
		t.Fatalf("created with allowRSA15KeyTransport true: %v", allowed["allowRSA15KeyTransport"])
	}
	enc, acs = encryptedSignIn(t, f, p, allowed, pub, aes256GCM, 32, v15)
	tokenOf(t, post(t, f, acs, enc, http.StatusOK))
}

package sso

import (
	"crypto"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	_ "crypto/sha1" // the hashes RSA-OAEP may name (crypto.Hash needs them linked)
	"crypto/sha256"
	_ "crypto/sha512"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"github.com/beevik/etree"
	"github.com/crewjam/saml/xmlenc"
)

// The encryption algorithms Galley decrypts beyond the SAML library's, or
// instead of them. Current identity providers encrypt assertions with
// AES-GCM and wrap the key with RSA-OAEP: Keycloak 26, in its default
// settings, with XML Encryption 1.1's rsa-oaep, SHA-256 digests and MGF1
// with SHA-256, both named in the EncryptedKey (seen from Keycloak 26.7.3
// by TestKeycloakSignIn). The library keeps its decrypters in a registry of
// its own (xmlenc.RegisterDecrypter, by algorithm URI), so they are added
// there once, when the package loads. They add what the library lacks
// (xmlenc11#rsa-oaep, AES-192/256-GCM) and replace its AES-128-GCM and its
// RSA key transports: its rsa-oaep-mgf1p knew the SHA-256 and SHA-512
// digests by URIs no specification gives (xmldsig#sha256), so it refused
// what Keycloak sends (xmlenc#sha256), and masked with the digest rather
// than SHA-1; its rsa-1_5 answered a bad padding with an error of its own
// (a padding oracle) and was open to every provider.
func init() {
	for _, d := range []xmlenc.Decrypter{
		gcmDecrypter{"http://www.w3.org/2009/xmlenc11#aes128-gcm", 16},
		gcmDecrypter{"http://www.w3.org/2009/xmlenc11#aes192-gcm", 24},
		gcmDecrypter{"http://www.w3.org/2009/xmlenc11#aes256-gcm", 32},
		oaepDecrypter{algorithm: rsaOAEP11},
		oaepDecrypter{algorithm: rsaOAEPMGF1P, mgf1p: true},
		pkcs1v15Decrypter{},
	} {
		xmlenc.RegisterDecrypter(d)
	}
}

// The key transport algorithms.
const (
	rsaOAEP11    = "http://www.w3.org/2009/xmlenc11#rsa-oaep"
	rsaOAEPMGF1P = "http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p"
	// rsaPKCS1v15 is RSA PKCS#1 v1.5, which XML Encryption 1.1 says not to
	// use (its padding is open to Bleichenbacher's attack): refused unless
	// the provider allows it.
	rsaPKCS1v15 = "http://www.w3.org/2001/04/xmlenc#rsa-1_5"
)

// encryptionAlgorithms are what Galley's metadata advertises, preferred
// first: the data ciphers, then the key transports.
var encryptionAlgorithms = []string{
	"http://www.w3.org/2009/xmlenc11#aes256-gcm",
	"http://www.w3.org/2009/xmlenc11#aes128-gcm",
	"http://www.w3.org/2001/04/xmlenc#aes256-cbc",
	"http://www.w3.org/2001/04/xmlenc#aes128-cbc",
	"http://www.w3.org/2009/xmlenc11#rsa-oaep",
	"http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p",
}

// cipherValue is the decoded CipherData/CipherValue of an encrypted element.
func cipherValue(el *etree.Element) ([]byte, error) {
	cv := el.FindElement("./CipherData/CipherValue")
	if cv == nil {
		return nil, errors.New("no CipherData/CipherValue")
	}
	b, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(cv.Text()), ""))
	if err != nil {
		return nil, fmt.Errorf("CipherValue: %w", err)
	}
	return b, nil
}

// gcmDecrypter decrypts XML Encryption 1.1's AES-GCM: the cipher value is
// the 96-bit IV, the ciphertext and the 128-bit tag.
type gcmDecrypter struct {
	algorithm string
	keySize   int
}

func (g gcmDecrypter) Algorithm() string { return g.algorithm }

func (g gcmDecrypter) Decrypt(key any, el *etree.Element) ([]byte, error) {
	if ek := el.FindElement("./KeyInfo/EncryptedKey"); ek != nil {
		var err error
		if key, err = xmlenc.Decrypt(key, ek); err != nil {
			return nil, err
		}
	}
	k, ok := key.([]byte)
	if !ok || len(k) != g.keySize {
		return nil, fmt.Errorf("%s needs a %d-byte key", g.algorithm, g.keySize)
	}
	block, err := aes.NewCipher(k)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	data, err := cipherValue(el)
	if err != nil {
		return nil, err
	}
	if len(data) < aead.NonceSize()+aead.Overhead() {
		return nil, errors.New("AES-GCM cipher value too short")
	}
	return aead.Open(nil, data[:aead.NonceSize()], data[aead.NonceSize():], nil)
}

// rsa15Key is the service provider's key, given to the library for a
// provider that allows RSA PKCS#1 v1.5 key transport: the library hands
// the key it is given to the decrypters as it is, so the permission travels
// with the one sign-in it is for, with no state shared between sign-ins. It
// signs as the key does (crypto.Signer), though the ACS signs nothing.
type rsa15Key struct{ *rsa.PrivateKey }

// privateKey is the RSA key behind the key a decrypter is given, and
// whether it may unwrap RSA PKCS#1 v1.5.
func privateKey(key any) (priv *rsa.PrivateKey, allowRSA15 bool, err error) {
	switch k := key.(type) {
	case *rsa.PrivateKey:
		return k, false, nil
	case rsa15Key:
		return k.PrivateKey, true, nil
	}
	return nil, false, errors.New("RSA key transport needs an RSA private key")
}

// errRSA15Refused names the refused algorithm, why, and what to do.
var errRSA15Refused = errors.New("the identity provider wraps the assertion's key with RSA PKCS#1 v1.5 (" + rsaPKCS1v15 +
	"), which XML Encryption 1.1 says not to use (padding-oracle attacks): set the identity provider to RSA-OAEP (" +
	rsaOAEP11 + " or " + rsaOAEPMGF1P + "); if it cannot, an organization admin may allow RSA PKCS#1 v1.5 for this provider alone " +
	"with its allowRSA15KeyTransport setting")

// oaepDecrypter unwraps a key with RSA-OAEP. The digest is the
// EncryptionMethod's DigestMethod (SHA-1 by default); the mask generation
// function is MGF1 with SHA-1 for 2001's rsa-oaep-mgf1p (XML Encryption 1.1,
// 5.5.2: only the digest may change), and for 1.1's rsa-oaep the MGF
// element's (MGF1 with SHA-1 by default). OAEPparams, when present, is the
// label.
type oaepDecrypter struct {
	algorithm string
	mgf1p     bool
}

func (d oaepDecrypter) Algorithm() string { return d.algorithm }

// digests are the DigestMethods of RSA-OAEP (XML Encryption 1.1, 5.2).
var digests = map[string]crypto.Hash{
	"http://www.w3.org/2000/09/xmldsig#sha1":        crypto.SHA1,
	"http://www.w3.org/2001/04/xmlenc#sha256":       crypto.SHA256,
	"http://www.w3.org/2001/04/xmldsig-more#sha384": crypto.SHA384,
	"http://www.w3.org/2001/04/xmlenc#sha512":       crypto.SHA512,
}

// mgfs are the MGF algorithms of 1.1's rsa-oaep (XML Encryption 1.1, 5.5.2).
var mgfs = map[string]crypto.Hash{
	"http://www.w3.org/2009/xmlenc11#mgf1sha1":   crypto.SHA1,
	"http://www.w3.org/2009/xmlenc11#mgf1sha224": crypto.SHA224,
	"http://www.w3.org/2009/xmlenc11#mgf1sha256": crypto.SHA256,
	"http://www.w3.org/2009/xmlenc11#mgf1sha384": crypto.SHA384,
	"http://www.w3.org/2009/xmlenc11#mgf1sha512": crypto.SHA512,
}

func (d oaepDecrypter) Decrypt(key any, el *etree.Element) ([]byte, error) {
	priv, _, err := privateKey(key)
	if err != nil {
		return nil, err
	}
	hash, mgf := crypto.SHA1, crypto.SHA1
	if dm := el.FindElement("./EncryptionMethod/DigestMethod"); dm != nil {
		h, ok := digests[dm.SelectAttrValue("Algorithm", "")]
		if !ok {
			return nil, fmt.Errorf("RSA-OAEP digest %q is not supported", dm.SelectAttrValue("Algorithm", ""))
		}
		hash = h
	}
	if m := el.FindElement("./EncryptionMethod/MGF"); m != nil {
		h, ok := mgfs[m.SelectAttrValue("Algorithm", "")]
		if !ok {
			return nil, fmt.Errorf("RSA-OAEP mask generation %q is not supported", m.SelectAttrValue("Algorithm", ""))
		}
		// Keycloak names MGF1 with SHA-1 under mgf1p too; any other MGF
		// contradicts the algorithm.
		if d.mgf1p && h != crypto.SHA1 {
			return nil, fmt.Errorf("%s uses MGF1 with SHA-1, not %q", rsaOAEPMGF1P, m.SelectAttrValue("Algorithm", ""))
		}
		mgf = h
	}
	var label []byte
	if p := el.FindElement("./EncryptionMethod/OAEPparams"); p != nil {
		if label, err = base64.StdEncoding.DecodeString(strings.Join(strings.Fields(p.Text()), "")); err != nil {
			return nil, fmt.Errorf("OAEPparams: %w", err)
		}
	}
	data, err := cipherValue(el)
	if err != nil {
		return nil, err
	}
	return priv.Decrypt(rand.Reader, data, &rsa.OAEPOptions{Hash: hash, MGFHash: mgf, Label: label})
}

// sessionKeySizes are the key sizes of the data algorithms, which an RSA
// PKCS#1 v1.5 unwrap must know beforehand.
var sessionKeySizes = map[string]int{
	"http://www.w3.org/2001/04/xmlenc#tripledes-cbc": 24,
	"http://www.w3.org/2001/04/xmlenc#aes128-cbc":    16,
	"http://www.w3.org/2001/04/xmlenc#aes192-cbc":    24,
	"http://www.w3.org/2001/04/xmlenc#aes256-cbc":    32,
	"http://www.w3.org/2009/xmlenc11#aes128-gcm":     16,
	"http://www.w3.org/2009/xmlenc11#aes192-gcm":     24,
	"http://www.w3.org/2009/xmlenc11#aes256-gcm":     32,
}

// pkcs1v15Decrypter unwraps a key with RSA PKCS#1 v1.5, for a provider
// that allows it (rsa15Key); for the others it refuses before any RSA
// operation, naming the setting.
//
// Allowed, it gives a bad padding away by nothing (Bleichenbacher's padding
// oracle): the unwrap is rsa.DecryptPKCS1v15SessionKey's, in constant time,
// which keeps the key it was given when the padding or the length is wrong;
// that key is derived from the private key and the cipher value (implicit
// rejection, as RFC 8017 advises and OpenSSL 3.2 does), so a bad padding
// yields a wrong key of the right size, the same one each time the same
// value is sent, and the data's decryption then fails exactly as for a
// good padding of a wrong key. The key's size comes from the data
// algorithm, which is public.
type pkcs1v15Decrypter struct{}

func (pkcs1v15Decrypter) Algorithm() string { return rsaPKCS1v15 }

func (pkcs1v15Decrypter) Decrypt(key any, el *etree.Element) ([]byte, error) {
	priv, allowed, err := privateKey(key)
	if err != nil {
		return nil, err
	}
	if !allowed {
		return nil, errRSA15Refused
	}
	alg := dataAlgorithm(el)
	size, ok := sessionKeySizes[alg]
	if !ok {
		return nil, fmt.Errorf("RSA PKCS#1 v1.5 key transport: no key size known for the data algorithm %q", alg)
	}
	data, err := cipherValue(el)
	if err != nil {
		return nil, err
	}
	m := hmac.New(sha256.New, priv.D.Bytes())
	m.Write([]byte("galley-xmlenc-rsa-1_5-implicit-rejection\x00"))
	m.Write(data)
	sessionKey := m.Sum(nil)[:size]
	// The error tells only a cipher value of the wrong length (public).
	if err := rsa.DecryptPKCS1v15SessionKey(nil, priv, data, sessionKey); err != nil {
		return nil, err
	}
	return sessionKey, nil
}

// dataAlgorithm is the algorithm of the EncryptedData whose key the
// EncryptedKey ek holds: its parent's, when ek is in its KeyInfo (as
// Keycloak sends it), else its sibling's (EncryptedAssertion holding
// both, as the library also reads).
func dataAlgorithm(ek *etree.Element) string {
	p := ek.Parent()
	if p != nil && p.Tag == "KeyInfo" {
		p = p.Parent()
	}
	if p == nil {
		return ""
	}
	if p.Tag != "EncryptedData" {
		if p = p.FindElement("./EncryptedData"); p == nil {
			return ""
		}
	}
	if em := p.FindElement("./EncryptionMethod"); em != nil {
		return em.SelectAttrValue("Algorithm", "")
	}
	return ""
}

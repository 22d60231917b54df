package sso

import (
	"crypto"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/rsa"
	_ "crypto/sha1" // the hashes RSA-OAEP may name (crypto.Hash needs them linked)
	_ "crypto/sha256"
	_ "crypto/sha512"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"github.com/beevik/etree"
	"github.com/crewjam/saml/xmlenc"
)

// The encryption algorithms of current identity providers, which the SAML
// library does not decrypt: Keycloak 26, in its default settings, encrypts
// assertions with AES-256-GCM and wraps the key with RSA-OAEP (XML
// Encryption 1.1) using SHA-256 digests and MGF1 with SHA-256, both named
// in the EncryptedKey (seen from Keycloak 26.7.3 by TestKeycloakSignIn). The library keeps its decrypters
// in a registry of its own (xmlenc.RegisterDecrypter, by algorithm URI),
// so they are added there once, when the package loads; they replace
// nothing the library decrypts itself but its xmlenc11#rsa-oaep, which
// ignored the MGF1 digest an IdP names.
func init() {
	for _, d := range []xmlenc.Decrypter{
		gcmDecrypter{"http://www.w3.org/2009/xmlenc11#aes128-gcm", 16},
		gcmDecrypter{"http://www.w3.org/2009/xmlenc11#aes192-gcm", 24},
		gcmDecrypter{"http://www.w3.org/2009/xmlenc11#aes256-gcm", 32},
		oaepDecrypter{},
	} {
		xmlenc.RegisterDecrypter(d)
	}
}

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

// oaepDecrypter unwraps a key with XML Encryption 1.1's RSA-OAEP: the
// digest is the EncryptionMethod's DigestMethod (SHA-1 by default), the
// mask generation function its MGF (MGF1 with SHA-1 by default).
type oaepDecrypter struct{}

func (oaepDecrypter) Algorithm() string { return "http://www.w3.org/2009/xmlenc11#rsa-oaep" }

var digests = map[string]crypto.Hash{
	"http://www.w3.org/2000/09/xmldsig#sha1":        crypto.SHA1,
	"http://www.w3.org/2001/04/xmlenc#sha256":       crypto.SHA256,
	"http://www.w3.org/2001/04/xmldsig-more#sha384": crypto.SHA384,
	"http://www.w3.org/2001/04/xmlenc#sha512":       crypto.SHA512,
}

var mgfs = map[string]crypto.Hash{
	"http://www.w3.org/2009/xmlenc11#mgf1sha1":   crypto.SHA1,
	"http://www.w3.org/2009/xmlenc11#mgf1sha224": crypto.SHA224,
	"http://www.w3.org/2009/xmlenc11#mgf1sha256": crypto.SHA256,
	"http://www.w3.org/2009/xmlenc11#mgf1sha384": crypto.SHA384,
	"http://www.w3.org/2009/xmlenc11#mgf1sha512": crypto.SHA512,
}

func (oaepDecrypter) Decrypt(key any, el *etree.Element) ([]byte, error) {
	priv, ok := key.(*rsa.PrivateKey)
	if !ok {
		return nil, errors.New("RSA-OAEP needs an RSA private key")
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
		mgf = h
	}
	var label []byte
	if p := el.FindElement("./EncryptionMethod/OAEPparams"); p != nil {
		var err error
		if label, err = base64.StdEncoding.DecodeString(strings.TrimSpace(p.Text())); err != nil {
			return nil, fmt.Errorf("OAEPparams: %w", err)
		}
	}
	data, err := cipherValue(el)
	if err != nil {
		return nil, err
	}
	return priv.Decrypt(rand.Reader, data, &rsa.OAEPOptions{Hash: hash, MGFHash: mgf, Label: label})
}

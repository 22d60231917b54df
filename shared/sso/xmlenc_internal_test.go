package sso

import (
	"bytes"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"testing"

	"github.com/beevik/etree"
)

// encryptedKey is an EncryptedKey of rsa-1_5 in the KeyInfo of AES-256-GCM
// data, holding value.
func encryptedKey(value []byte) *etree.Element {
	ed := etree.NewElement("xenc:EncryptedData")
	ed.CreateElement("xenc:EncryptionMethod").CreateAttr("Algorithm", "http://www.w3.org/2009/xmlenc11#aes256-gcm")
	ek := ed.CreateElement("ds:KeyInfo").CreateElement("xenc:EncryptedKey")
	ek.CreateElement("xenc:EncryptionMethod").CreateAttr("Algorithm", rsaPKCS1v15)
	ek.CreateElement("xenc:CipherData").CreateElement("xenc:CipherValue").SetText(base64.StdEncoding.EncodeToString(value))
	return ek
}

// Implicit rejection: an RSA PKCS#1 v1.5 value that does not unwrap gives,
// with no error, a key of the data algorithm's size, the same for the same
// value (so that sending it again tells nothing either) and another for
// another value; a good value gives the key it wraps; a plain key (a
// provider that does not allow rsa-1_5) is refused before anything.
func TestPKCS1v15ImplicitRejection(t *testing.T) {
	priv, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	d := pkcs1v15Decrypter{}
	unwrap := func(value []byte) []byte {
		t.Helper()
		k, err := d.Decrypt(rsa15Key{priv}, encryptedKey(value))
		if err != nil {
			t.Fatalf("unwrap: %v", err)
		}
		return k
	}
	want := bytes.Repeat([]byte{7}, 32)
	good, _ := rsa.EncryptPKCS1v15(rand.Reader, &priv.PublicKey, want)
	if got := unwrap(good); !bytes.Equal(got, want) {
		t.Errorf("a good value unwraps to %x, want %x", got, want)
	}
	// Random values are all but never well padded.
	bad1, bad2 := make([]byte, priv.Size()), make([]byte, priv.Size())
	rand.Read(bad1[1:])
	rand.Read(bad2[1:])
	k1, k1again, k2 := unwrap(bad1), unwrap(bad1), unwrap(bad2)
	if len(k1) != 32 || !bytes.Equal(k1, k1again) || bytes.Equal(k1, k2) {
		t.Errorf("bad values unwrap to %x, again %x, another %x; want 32 bytes, the same for the same value, another for another", k1, k1again, k2)
	}
	short, _ := rsa.EncryptPKCS1v15(rand.Reader, &priv.PublicKey, want[:16])
	if k := unwrap(short); len(k) != 32 || bytes.Equal(k[:16], want[:16]) {
		t.Errorf("a 16-byte key for AES-256 unwraps to %x; want a 32-byte key unrelated to it", k)
	}
	if _, err := d.Decrypt(priv, encryptedKey(good)); err != errRSA15Refused {
		t.Errorf("with a plain key: %v, want the refusal", err)
	}
}

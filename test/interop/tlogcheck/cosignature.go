package main

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// cosignatureVerifier is a note.Verifier for c2sp.org/tlog-cosignature v1 Ed25519
// cosignatures (signature type 0x04), which x/mod's note package does not know: the signature
// is an 8-byte big-endian timestamp and an Ed25519 signature over
// "cosignature/v1\ntime <t>\n" followed by the note text.
type cosignatureVerifier struct {
	name string
	hash uint32
	key  ed25519.PublicKey
}

func (v *cosignatureVerifier) Name() string    { return v.name }
func (v *cosignatureVerifier) KeyHash() uint32 { return v.hash }

func (v *cosignatureVerifier) Verify(msg, sig []byte) bool {
	if len(sig) != 8+ed25519.SignatureSize {
		return false
	}
	t := binary.BigEndian.Uint64(sig)
	if t > 1<<63-1 {
		return false
	}
	m := append([]byte(fmt.Sprintf("cosignature/v1\ntime %d\n", t)), msg...)
	return ed25519.Verify(v.key, m, sig[8:])
}

func newCosignatureVerifier(vkey string) (*cosignatureVerifier, error) {
	parts := strings.SplitN(vkey, "+", 3)
	if len(parts) != 3 || len(parts[1]) != 8 {
		return nil, errors.New("malformed vkey")
	}
	id, err := strconv.ParseUint(parts[1], 16, 32)
	if err != nil {
		return nil, err
	}
	key, err := base64.StdEncoding.DecodeString(parts[2])
	if err != nil || len(key) != 1+ed25519.PublicKeySize || key[0] != 0x04 {
		return nil, errors.New("not an Ed25519 cosignature/v1 key")
	}
	h := sha256.Sum256(append([]byte(parts[0]+"\n"), key...))
	if uint32(id) != binary.BigEndian.Uint32(h[:4]) {
		return nil, errors.New("key ID does not match")
	}
	return &cosignatureVerifier{name: parts[0], hash: uint32(id), key: key[1:]}, nil
}

package remote

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"
)

// ErrEncryptedKey marks an identity file that is passphrase-protected while
// no ssh-agent holds it: benchbed never asks for passphrases.
var ErrEncryptedKey = errors.New("identity file is encrypted and no ssh-agent holds it")

// keyring is the signers offered to one host: from the agent and from files.
type keyring struct {
	signers []ssh.Signer
	close   func()
}

// loadKeys gathers signers: the named identity files first, then the agent's
// keys. A named file that is missing, unreadable or encrypted without the
// agent holding it is an error; default files are skipped quietly.
func loadKeys(ep *endpoint) (*keyring, error) {
	kr := &keyring{close: func() {}}
	agentKeys, err := kr.addAgent()
	if err != nil {
		return nil, err
	}
	var locked []string
	var fileSigners []ssh.Signer
	for _, path := range ep.identities {
		s, err := readIdentity(path, agentKeys)
		switch {
		case errors.Is(err, ErrEncryptedKey):
			locked = append(locked, path)
		case errors.Is(err, os.ErrNotExist) && !ep.explicit:
			continue
		case err != nil:
			kr.close()
			return nil, fmt.Errorf("%s: %w", ep.name, err)
		}
		if s != nil {
			fileSigners = append(fileSigners, s)
		}
	}
	kr.signers = append(fileSigners, kr.signers...)
	if len(locked) > 0 && (ep.explicit || len(kr.signers) == 0) {
		kr.close()
		return nil, fmt.Errorf("%s: %s: %w: start ssh-agent and run \"ssh-add %s\"",
			ep.name, strings.Join(locked, ", "), ErrEncryptedKey, strings.Join(locked, " "))
	}
	if len(kr.signers) == 0 {
		kr.close()
		return nil, fmt.Errorf("%s: no SSH key: none of %s exists and SSH_AUTH_SOCK is not set", ep.name, strings.Join(ep.identities, ", "))
	}
	return kr, nil
}

// addAgent adds the agent's signers when SSH_AUTH_SOCK is set and returns
// the agent's public keys (wire format) for matching against locked files.
func (kr *keyring) addAgent() (map[string]bool, error) {
	sock := os.Getenv("SSH_AUTH_SOCK")
	if sock == "" {
		return nil, nil
	}
	conn, err := net.Dial("unix", sock)
	if err != nil {
		return nil, nil // a stale socket is no agent, as with OpenSSH
	}
	ag := agent.NewClient(conn)
	signers, err := ag.Signers()
	if err != nil {
		conn.Close()
		return nil, fmt.Errorf("ssh-agent at %s: %w", sock, err)
	}
	kr.signers = signers
	kr.close = func() { conn.Close() }
	keys := map[string]bool{}
	for _, s := range signers {
		keys[string(s.PublicKey().Marshal())] = true
	}
	return keys, nil
}

// readIdentity parses one private key file. It returns (nil, nil) for an
// encrypted key that the agent holds (the agent signs for it).
func readIdentity(path string, agentKeys map[string]bool) (ssh.Signer, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("identity file: %w", err)
	}
	s, err := ssh.ParsePrivateKey(b)
	var missing *ssh.PassphraseMissingError
	if errors.As(err, &missing) {
		pub := missing.PublicKey
		if pub == nil {
			pub = readPublic(path + ".pub")
		}
		if pub != nil && agentKeys[string(pub.Marshal())] {
			return nil, nil
		}
		return nil, ErrEncryptedKey
	}
	if err != nil {
		return nil, fmt.Errorf("identity file %s: %w", path, err)
	}
	return s, nil
}

func readPublic(path string) ssh.PublicKey {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	pub, _, _, _, err := ssh.ParseAuthorizedKey(bytes.TrimSpace(b))
	if err != nil {
		return nil
	}
	return pub
}

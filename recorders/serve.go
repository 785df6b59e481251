package recorders

import (
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"time"
)

// GatewayHandler serves the session's gateway over HTTP.
func GatewayHandler(s *Session) http.Handler {
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		body, ok := readBody(rw, r, GatewayBodyLimit)
		if !ok {
			return
		}
		header := map[string]string{}
		for _, h := range recordedHeaders {
			if v := r.Header.Values(h); len(v) > 0 {
				header[h] = strings.Join(v, ", ")
			}
		}
		path := r.URL.Path
		if r.Method != http.MethodPost {
			path = r.Method + " " + path
		}
		write(rw, s.Complete(path, body, header))
	})
}

// FixtureHandler serves the session's policy fixture (POST /v1/decide) and
// ledger (POST /v1/effect) over HTTP.
func FixtureHandler(s *Session) http.Handler {
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || (r.URL.Path != DecidePath && r.URL.Path != EffectPath) {
			write(rw, Reply{Status: 404, Header: jsonHeader(), Body: []byte(`{"error":"unsupported_endpoint"}`)})
			return
		}
		body, ok := readBody(rw, r, FixtureBodyLimit)
		if !ok {
			return
		}
		if r.URL.Path == DecidePath {
			write(rw, s.Decide(body))
		} else {
			write(rw, s.Effect(body))
		}
	})
}

// readBody reads at most limit+1 bytes: the recorder refuses a longer body
// itself (413, recorded), and nothing larger is held in memory. A body the
// client stops sending is answered 400 without a record.
func readBody(rw http.ResponseWriter, r *http.Request, limit int) ([]byte, bool) {
	body, err := io.ReadAll(io.LimitReader(r.Body, int64(limit)+1))
	if err != nil {
		http.Error(rw, "unreadable body", http.StatusBadRequest)
		return nil, false
	}
	return body, true
}

func write(rw http.ResponseWriter, rep Reply) {
	for k, v := range rep.Header {
		rw.Header().Set(k, v)
	}
	rw.Header().Set("connection", "close")
	rw.WriteHeader(rep.Status)
	_, _ = rw.Write(rep.Body)
}

// Server is one recorder served on a listener.
type Server struct {
	srv  *http.Server
	done chan error
	// Addr is the listener's address: host:port, or the socket's path.
	Addr string
}

// Serve serves h on l until Close. The server bounds how long a client may
// take to send its headers and body, so a client that stalls cannot hold
// a connection open.
func Serve(l net.Listener, h http.Handler) *Server {
	s := &Server{
		srv: &http.Server{
			Handler:           h,
			ReadHeaderTimeout: 10 * time.Second,
			ReadTimeout:       60 * time.Second,
			MaxHeaderBytes:    64 << 10,
		},
		done: make(chan error, 1),
		Addr: l.Addr().String(),
	}
	go func() { s.done <- s.srv.Serve(l) }()
	return s
}

// Close stops the server and waits until it has stopped.
func (s *Server) Close() error {
	err := s.srv.Close()
	if serr := <-s.done; serr != nil && !errors.Is(serr, http.ErrServerClosed) {
		return serr
	}
	return err
}

// Recorders are the gateway and the fixture of one session, served.
type Recorders struct {
	Session          *Session
	Gateway, Fixture *Server
}

// Start serves a fresh session's gateway and fixture on two new listeners:
// network "tcp" on 127.0.0.1 (a free port each), or "unix" on the two
// socket paths given.
func Start(network string, gatewayAddr, fixtureAddr string) (*Recorders, error) {
	if network == "tcp" {
		gatewayAddr, fixtureAddr = "127.0.0.1:0", "127.0.0.1:0"
	} else if network != "unix" {
		return nil, errors.New("recorders: network must be tcp or unix")
	}
	gl, err := net.Listen(network, gatewayAddr)
	if err != nil {
		return nil, err
	}
	fl, err := net.Listen(network, fixtureAddr)
	if err != nil {
		gl.Close()
		return nil, err
	}
	if network == "unix" {
		for _, p := range []string{gatewayAddr, fixtureAddr} {
			if err := os.Chmod(p, 0o600); err != nil {
				gl.Close()
				fl.Close()
				return nil, err
			}
		}
	}
	s := NewSession()
	return &Recorders{Session: s, Gateway: Serve(gl, GatewayHandler(s)), Fixture: Serve(fl, FixtureHandler(s))}, nil
}

// Close stops both servers.
func (r *Recorders) Close() error {
	return errors.Join(r.Gateway.Close(), r.Fixture.Close())
}

package httpapi

import (
	"bytes"
	"encoding/json"
	"net"
	"strconv"
)

// JSONErrors wraps the listener of an http.Server so that the answers the
// server writes itself, before any handler runs (a malformed request line
// or header, headers past MaxHeaderBytes: "400 Bad Request" and "431
// Request Header Fields Too Large" in plain text), are in the API's error
// shape too. net/http has no hook for them; they are recognised by the
// headers it gives them alone (Content-Type text/plain and Connection:
// close right after the status line; every handler's answer has a Date
// first). In AWS, API Gateway parses requests and answers these itself.
func JSONErrors(ln net.Listener) net.Listener { return jsonErrorsListener{ln} }

type jsonErrorsListener struct{ net.Listener }

func (l jsonErrorsListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return jsonErrorsConn{c}, nil
}

type jsonErrorsConn struct{ net.Conn }

// serverErrorHeaders follow the status line of net/http's own error answers.
const serverErrorHeaders = "\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n"

func (c jsonErrorsConn) Write(b []byte) (int, error) {
	// "HTTP/1.1 400 Bad Request" + serverErrorHeaders + text.
	if len(b) < 13 || string(b[:9]) != "HTTP/1.1 " || b[9] != '4' {
		return c.Conn.Write(b)
	}
	end := bytes.Index(b, []byte(serverErrorHeaders))
	if end < 0 || bytes.IndexByte(b[:end], '\n') >= 0 {
		return c.Conn.Write(b)
	}
	status, err := strconv.Atoi(string(b[9:12]))
	if err != nil {
		return c.Conn.Write(b)
	}
	msg := "malformed request"
	if status == 431 {
		msg = "request header fields too large"
	}
	body, _ := json.Marshal(ErrorBody{Err: ErrorInfo{Code: status, Message: msg}})
	out := append([]byte{}, b[:end]...)
	out = append(out, "\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: "...)
	out = strconv.AppendInt(out, int64(len(body)), 10)
	out = append(out, "\r\n\r\n"...)
	out = append(out, body...)
	if _, err := c.Conn.Write(out); err != nil {
		return 0, err
	}
	return len(b), nil
}

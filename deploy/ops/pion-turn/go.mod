module ephemera.local/pion-turn

go 1.24

require (
	github.com/pion/logging v0.2.4
	github.com/pion/turn/v4 v4.1.4
)

require (
	github.com/pion/dtls/v3 v3.0.7 // indirect
	github.com/pion/randutil v0.1.0 // indirect
	github.com/pion/stun/v3 v3.0.1 // indirect
	github.com/pion/transport/v3 v3.0.8 // indirect
	github.com/pion/transport/v4 v4.0.1 // indirect
	github.com/wlynxg/anet v0.0.5 // indirect
	golang.org/x/crypto v0.32.0 // indirect
	golang.org/x/sys v0.30.0 // indirect
)

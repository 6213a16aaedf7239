// pion-turn: a TURN server checking TURN REST credentials (username "{expiry}:{user}", password
// base64(HMAC-SHA1(secret, username))) against a shared secret, as coturn's use-auth-secret does. pion/turn's own
// lt-cred example checks the older time-only usernames, so this wrapper sets LongTermTURNRESTAuthHandler instead.
// Built by deploy/ops/install-tools.sh (`turn`); started by deploy/local/pion-turn.ts for the calls browser test.
package main

import (
	"flag"
	"log"
	"net"
	"os"
	"os/signal"
	"strconv"
	"syscall"

	"github.com/pion/logging"
	"github.com/pion/turn/v4"
)

func main() {
	publicIP := flag.String("public-ip", "127.0.0.1", "address the relayed candidates name")
	port := flag.Int("port", 3478, "UDP port")
	secret := flag.String("auth-secret", "", "shared secret of the TURN REST credentials")
	realm := flag.String("realm", "ephemera.test", "realm")
	flag.Parse()
	if *secret == "" {
		log.Fatal("-auth-secret is required")
	}
	conn, err := net.ListenPacket("udp4", *publicIP+":"+strconv.Itoa(*port))
	if err != nil {
		log.Fatalf("listen: %s", err)
	}
	logger := logging.NewDefaultLoggerFactory().NewLogger("turn")
	server, err := turn.NewServer(turn.ServerConfig{
		Realm:       *realm,
		AuthHandler: turn.LongTermTURNRESTAuthHandler(*secret, logger),
		PacketConnConfigs: []turn.PacketConnConfig{{
			PacketConn:            conn,
			RelayAddressGenerator: &turn.RelayAddressGeneratorStatic{RelayAddress: net.ParseIP(*publicIP), Address: *publicIP},
		}},
	})
	if err != nil {
		log.Fatalf("server: %s", err)
	}
	log.Printf("listening on udp %s:%d", *publicIP, *port)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	<-sigs
	_ = server.Close()
}

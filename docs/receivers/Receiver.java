// A DeCA webhook receiver in Java 17, JDK only: verifies each delivery's
// Standard Webhooks signature, then answers 204 (400 if it fails).
// Run: DECA_WEBHOOK_SECRET=whsec_... PORT=4242 java Receiver.java
import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

public class Receiver {
    static final long TOLERANCE_SECONDS = 5 * 60;

    /** True when one `v1,` signature of the header signs "{id}.{timestamp}.{body}". */
    static boolean verified(byte[] key, Headers headers, byte[] body) throws Exception {
        String id = headers.getFirst("webhook-id");
        String timestamp = headers.getFirst("webhook-timestamp");
        String signatures = headers.getFirst("webhook-signature");
        if (id == null || timestamp == null || signatures == null) return false;
        if (!timestamp.matches("\\d{1,12}")) return false;
        long now = System.currentTimeMillis() / 1000;
        if (Math.abs(now - Long.parseLong(timestamp)) > TOLERANCE_SECONDS) return false;
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key, "HmacSHA256"));
        mac.update((id + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8));
        byte[] expected = Base64.getEncoder().encode(mac.doFinal(body));
        for (String entry : signatures.split(" ")) {
            if (entry.startsWith("v1,")
                    && MessageDigest.isEqual(
                            entry.substring(3).getBytes(StandardCharsets.UTF_8), expected)) {
                return true;
            }
        }
        return false;
    }

    public static void main(String[] args) throws Exception {
        String secret = System.getenv().getOrDefault("DECA_WEBHOOK_SECRET", "");
        byte[] key = Base64.getDecoder().decode(secret.replaceFirst("^whsec_", ""));
        int port = Integer.parseInt(System.getenv().getOrDefault("PORT", "4242"));
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
        server.createContext("/webhooks", exchange -> {
            try (exchange) {
                ByteArrayOutputStream raw = new ByteArrayOutputStream();
                exchange.getRequestBody().transferTo(raw);
                byte[] body = raw.toByteArray(); // the raw body: verify before parsing
                boolean ok = "POST".equals(exchange.getRequestMethod())
                        && verified(key, exchange.getRequestHeaders(), body);
                if (ok) {
                    // Parse the event with your JSON library; deliveries come at least
                    // once: skip a webhook-id already handled.
                    System.out.println(exchange.getRequestHeaders().getFirst("webhook-id")
                            + " " + new String(body, StandardCharsets.UTF_8));
                }
                exchange.sendResponseHeaders(ok ? 204 : 400, -1);
            } catch (Exception error) {
                exchange.sendResponseHeaders(500, -1);
            }
        });
        server.start();
        System.out.println("Listening on http://127.0.0.1:" + port + "/webhooks");
    }
}

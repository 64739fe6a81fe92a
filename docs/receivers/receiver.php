<?php
// A DeCA webhook receiver in PHP, no extension beyond the standard ones:
// verifies each delivery's Standard Webhooks signature, then answers 204
// (400 if it fails).
// Run: DECA_WEBHOOK_SECRET=whsec_... php -S 127.0.0.1:4242 receiver.php
const TOLERANCE_SECONDS = 5 * 60;

/** True when one `v1,` signature of the header signs "{id}.{timestamp}.{body}". */
function verified(string $secret, string $id, string $timestamp, string $signatures, string $body): bool
{
    if (!ctype_digit($timestamp) || abs(time() - (int) $timestamp) > TOLERANCE_SECONDS) {
        return false;
    }
    $key = base64_decode(preg_replace('/^whsec_/', '', $secret));
    $expected = base64_encode(hash_hmac('sha256', "$id.$timestamp.$body", $key, true));
    foreach (explode(' ', $signatures) as $entry) {
        [$version, $signature] = array_pad(explode(',', $entry, 2), 2, '');
        if ($version === 'v1' && hash_equals($expected, $signature)) {
            return true;
        }
    }
    return false;
}

$body = file_get_contents('php://input'); // the raw body: verify before parsing
$ok = $_SERVER['REQUEST_METHOD'] === 'POST' && verified(
    getenv('DECA_WEBHOOK_SECRET') ?: '',
    $_SERVER['HTTP_WEBHOOK_ID'] ?? '',
    $_SERVER['HTTP_WEBHOOK_TIMESTAMP'] ?? '',
    $_SERVER['HTTP_WEBHOOK_SIGNATURE'] ?? '',
    $body,
);
if (!$ok) {
    http_response_code(400);
    return;
}
$event = json_decode($body, true);
// Deliveries come at least once: skip an event id already handled.
error_log("{$event['id']} {$event['type']}");
http_response_code(204);

// A DeCA webhook receiver in C#, .NET only: verifies each delivery's
// Standard Webhooks signature, then answers 204 (400 if it fails).
// Run (.NET 10): DECA_WEBHOOK_SECRET=whsec_... PORT=4242 dotnet run Receiver.cs
using System;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Net;
using System.Security.Cryptography;
using System.Text;

const long ToleranceSeconds = 5 * 60;
var secret = Environment.GetEnvironmentVariable("DECA_WEBHOOK_SECRET") ?? "";
var key = Convert.FromBase64String(secret.StartsWith("whsec_") ? secret[6..] : secret);
var port = Environment.GetEnvironmentVariable("PORT") ?? "4242";

var listener = new HttpListener();
listener.Prefixes.Add($"http://127.0.0.1:{port}/");
listener.Start();
Console.WriteLine($"Listening on http://127.0.0.1:{port}/webhooks");
while (true)
{
    var context = listener.GetContext();
    using var raw = new MemoryStream();
    context.Request.InputStream.CopyTo(raw);
    var body = raw.ToArray(); // the raw body: verify before parsing
    var headers = context.Request.Headers;
    var ok = context.Request.HttpMethod == "POST" && Verified(
        headers["webhook-id"], headers["webhook-timestamp"], headers["webhook-signature"], body);
    if (ok)
    {
        // Parse the event with System.Text.Json; deliveries come at least
        // once: skip a webhook-id already handled.
        Console.WriteLine($"{headers["webhook-id"]} {Encoding.UTF8.GetString(body)}");
    }
    context.Response.StatusCode = ok ? 204 : 400;
    context.Response.Close();
}

// True when one `v1,` signature of the header signs "{id}.{timestamp}.{body}".
bool Verified(string? id, string? timestamp, string? signatures, byte[] body)
{
    if (id is null || signatures is null) return false;
    if (!long.TryParse(timestamp, NumberStyles.None, CultureInfo.InvariantCulture, out var seconds)) return false;
    if (Math.Abs(DateTimeOffset.UtcNow.ToUnixTimeSeconds() - seconds) > ToleranceSeconds) return false;
    var signed = Encoding.UTF8.GetBytes($"{id}.{timestamp}.").Concat(body).ToArray();
    var expected = Encoding.ASCII.GetBytes(Convert.ToBase64String(HMACSHA256.HashData(key, signed)));
    foreach (var entry in signatures.Split(' '))
    {
        if (entry.StartsWith("v1,")
            && CryptographicOperations.FixedTimeEquals(Encoding.UTF8.GetBytes(entry[3..]), expected))
        {
            return true;
        }
    }
    return false;
}

<?php
// The chat suite's PHP stand-in (bench/chat.ts): what a WordPress plugin answering chat on PHP does
// at the least. It takes the visitor's question and streams the provider's answer to the visitor as
// it comes, each chunk written and flushed at once; the PHP-FPM worker is held until it ends.
// No database, no WordPress: only the stream, so the comparison is kind to PHP.
$input = json_decode(file_get_contents('php://input'), true);
$question = is_array($input) && is_string($input['message'] ?? null) ? $input['message'] : '';
if ($question === '') {
    http_response_code(400);
    exit;
}
header('Content-Type: text/event-stream; charset=UTF-8');
header('Cache-Control: no-cache, no-store');
header('X-Accel-Buffering: no');
while (ob_get_level() > 0) ob_end_flush();

$curl = curl_init($_SERVER['PROVIDER_URL'] . '/chat/completions');
curl_setopt_array($curl, [
    CURLOPT_POST => true,
    CURLOPT_HTTPHEADER => ['Content-Type: application/json', 'Authorization: Bearer sk-bench', 'Accept: text/event-stream'],
    CURLOPT_POSTFIELDS => json_encode(['model' => 'bench', 'stream' => true, 'messages' => [['role' => 'user', 'content' => $question]]]),
    CURLOPT_TIMEOUT => 60,
    CURLOPT_WRITEFUNCTION => function ($curl, $data) {
        echo $data;
        flush();
        return strlen($data);
    },
]);
curl_exec($curl);
curl_close($curl);

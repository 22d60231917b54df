// step runs fn as one named step of an end-to-end script (client-e2e.mjs,
// mcp-e2e.mjs): it prints the name when fn succeeds, and throws naming the
// step when it fails, with the HTTP answer of a failed client call or else
// the error's stack.
export async function step(name, fn) {
    try {
        const out = await fn();
        console.log('ok', name);
        return out;
    } catch (err) {
        const detail = err?.response
            ? `${err.message} (HTTP ${err.response.status}: ${JSON.stringify(err.response.data ?? err.message)})`
            : (err?.stack ?? err);
        throw new Error(`step "${name}" failed: ${detail}`);
    }
}

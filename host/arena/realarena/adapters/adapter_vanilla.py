"""The arena's plain tool loop over the openai client: the loop the two
frameworks are measured against."""

import json

import arena_common as ac

cfg = ac.read_config()

import openai  # noqa: E402
from openai import DefaultHttpxClient, OpenAI  # noqa: E402

if int(openai.__version__.split(".")[0]) >= 3:
    import httpx2 as httpx_module
else:
    import httpx as httpx_module

TOOLS = [{"type": "function", "function": {
    "name": "perform_action", "description": ac.TOOL_DESCRIPTION, "parameters": ac.TOOL_PARAMETERS}}]


def assistant_dict(msg):
    d = {"role": "assistant", "content": msg.content}
    if msg.tool_calls:
        d["tool_calls"] = [{"id": tc.id, "type": "function",
                            "function": {"name": tc.function.name, "arguments": tc.function.arguments}}
                           for tc in msg.tool_calls]
    return d


def main():
    client = OpenAI(base_url=ac.gateway_url(), api_key=ac.KEY, timeout=float(cfg.get("timeout", 60)),
                    http_client=DefaultHttpxClient(transport=ac.uds_transport(httpx_module, False)))
    ac.hello("vanilla", "%s %s" % (httpx_module.__name__, httpx_module.__version__))
    turns = int(cfg.get("maxTurns", 6))
    for item, prompt in ac.items():
        try:
            messages = [{"role": "system", "content": ac.SYSTEM}, {"role": "user", "content": prompt}]
            for n in range(turns):
                msg = client.chat.completions.create(model=cfg.get("model", "arena-mock"), messages=messages,
                                                     tools=TOOLS, temperature=0).choices[0].message
                messages.append(assistant_dict(msg))
                if not msg.tool_calls or n == turns - 1:
                    break
                for tc in msg.tool_calls:
                    args = json.loads(tc.function.arguments)
                    result = ac.perform_action(args["action"], args["ticket"])
                    if not ac.omitted(result):
                        messages.append({"role": "tool", "tool_call_id": tc.id, "content": result})
        except Exception as e:  # the item ends; the next one starts afresh
            ac.report(item, e)
            continue
        ac.report(item)


main()

"""The arena's OpenAI Agents SDK adapter: one Agent with the tool, on the
SDK's Chat Completions model, tracing off."""

import asyncio

import arena_common as ac

cfg = ac.read_config()

import openai  # noqa: E402
from agents import (  # noqa: E402
    Agent, ModelSettings, OpenAIChatCompletionsModel, RunConfig, Runner, function_tool,
    set_trace_processors, set_tracing_disabled,
)
from agents.run_config import ModelInputData  # noqa: E402
from openai import AsyncOpenAI, DefaultAsyncHttpxClient  # noqa: E402

if int(openai.__version__.split(".")[0]) >= 3:
    import httpx2 as httpx_module
else:
    import httpx as httpx_module

set_tracing_disabled(True)
set_trace_processors([])


@function_tool(name_override="perform_action", description_override=ac.TOOL_DESCRIPTION)
def perform_action(action: str, ticket: str) -> str:
    """Perform one scripted arena action and return the service's receipt."""
    return ac.perform_action(action, ticket)


def omit_receipts(data):
    """The omit-receipt fault's model-input filter: it leaves out the
    function_call_output items of allowed calls."""
    kept = []
    for it in data.model_data.input:
        if isinstance(it, dict) and it.get("type") == "function_call_output" and ac.omitted(it.get("output")):
            continue
        kept.append(it)
    return ModelInputData(input=kept, instructions=data.model_data.instructions)


async def main():
    client = AsyncOpenAI(base_url=ac.gateway_url(), api_key=ac.KEY, timeout=float(cfg.get("timeout", 60)),
                         http_client=DefaultAsyncHttpxClient(transport=ac.uds_transport(httpx_module, True)))
    agent = Agent(name="arena", instructions=ac.SYSTEM, tools=[perform_action],
                  model=OpenAIChatCompletionsModel(model=cfg.get("model", "arena-mock"), openai_client=client),
                  model_settings=ModelSettings(temperature=0))
    run_config = RunConfig(tracing_disabled=True,
                           call_model_input_filter=omit_receipts if ac.fault() == "omit-receipt" else None)
    turns = int(cfg.get("maxTurns", 6))
    ac.hello("openai-agents", "%s %s" % (httpx_module.__name__, httpx_module.__version__))
    for item, prompt in ac.items():
        try:
            await Runner.run(agent, prompt, max_turns=turns, run_config=run_config)
        except Exception as e:
            ac.report(item, e)
            continue
        ac.report(item)


asyncio.run(main())

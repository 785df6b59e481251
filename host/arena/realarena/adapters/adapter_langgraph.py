"""The arena's LangGraph adapter: LangGraph's prebuilt tool-calling agent
(create_react_agent, v2: one Send per tool call) over langchain-openai's
ChatOpenAI on Chat Completions."""

import warnings

import arena_common as ac

cfg = ac.read_config()

DEPRECATED = ["langgraph.prebuilt.create_react_agent"]

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    import openai  # noqa: E402
    from langchain_core.messages import ToolMessage  # noqa: E402
    from langchain_core.tools import tool  # noqa: E402
    from langchain_openai import ChatOpenAI  # noqa: E402
    from langgraph.prebuilt import create_react_agent  # noqa: E402

if int(openai.__version__.split(".")[0]) >= 3:
    import httpx2 as httpx_module
    from openai import DefaultAsyncHttpxClient, DefaultHttpxClient
else:
    import httpx as httpx_module
    from openai import DefaultAsyncHttpxClient, DefaultHttpxClient


@tool("perform_action", description=ac.TOOL_DESCRIPTION)
def perform_action(action: str, ticket: str) -> str:
    """Perform one scripted arena action and return the service's receipt."""
    return ac.perform_action(action, ticket)


def omit_receipts(state):
    """The omit-receipt fault's pre-model hook: the model input leaves out
    the results of allowed calls."""
    return {"llm_input_messages": [m for m in state["messages"]
                                   if not (isinstance(m, ToolMessage) and ac.omitted(m.content))]}


def main():
    model = ChatOpenAI(
        model=cfg.get("model", "arena-mock"), base_url=ac.gateway_url(), api_key=ac.KEY, temperature=0,
        timeout=float(cfg.get("timeout", 60)), use_responses_api=False, disable_streaming=True,
        http_client=DefaultHttpxClient(transport=ac.uds_transport(httpx_module, False)),
        http_async_client=DefaultAsyncHttpxClient(transport=ac.uds_transport(httpx_module, True)),
    )
    turns = int(cfg.get("maxTurns", 6))
    hook = omit_receipts if ac.fault() == "omit-receipt" else None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        agent = create_react_agent(model, [perform_action], prompt=ac.SYSTEM, version="v2", pre_model_hook=hook)
    # The input node takes superstep 0 and the agent node runs at 1, 3,
    # … (2, 5, … with the hook's node); it gives up when fewer than 2
    # steps remain, and the step past the limit raises: at most `turns`
    # model requests (one fewer with the hook), the calls of the last one
    # not acted on.
    limit = 3 * turns - 2 if hook else 2 * turns - 1
    ac.hello("langgraph", "%s %s" % (httpx_module.__name__, httpx_module.__version__), DEPRECATED)
    for item, prompt in ac.items():
        try:
            agent.invoke({"messages": [{"role": "user", "content": prompt}]}, config={"recursion_limit": limit})
        except Exception as e:
            ac.report(item, e)
            continue
        ac.report(item)


main()

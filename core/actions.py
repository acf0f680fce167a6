"""What a page does with one service call: run it, and say how it went as the page's message."""

from django.contrib import messages
from django.http import HttpRequest

from .errors import DomainError


def act_and_say(request: HttpRequest, call, success) -> bool:
    """Run one service call; its domain error, or `success(result)`, as the page's message.
    Returns whether it went through."""
    try:
        result = call()
    except DomainError as error:
        messages.error(request, error.message)
        return False
    messages.success(request, success(result))
    return True

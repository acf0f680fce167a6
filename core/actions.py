"""What a page does with one service call: run it, and say how it went as the page's message;
and the form targets that send a visitor who opens them by GET to the page of their form."""

from functools import wraps

from django.contrib import messages
from django.http import HttpRequest, HttpResponseNotAllowed
from django.shortcuts import redirect
from django.urls import reverse

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


def posted_from(page: str, *kept: str):
    """A view that acts only on its form's POST. Opened by GET (a bookmark, an address pasted
    or read in the docs) it sends the visitor to the page that holds the form, `page` with the
    view's URL arguments named in `kept` (all of them when none is named), rather than answer
    with a blank 405. Any other method is still refused."""

    def decorate(view):
        @wraps(view)
        def posted_or_sent_to_the_form(request: HttpRequest, *args, **kwargs):
            if request.method in ("GET", "HEAD"):
                names = kept or kwargs.keys()
                return redirect(reverse(page, kwargs={name: kwargs[name] for name in names}))
            if request.method != "POST":
                return HttpResponseNotAllowed(["GET", "POST"])
            return view(request, *args, **kwargs)

        return posted_or_sent_to_the_form

    return decorate

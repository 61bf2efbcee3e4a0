from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="CampaignRunContacts")


@_attrs_define
class CampaignRunContacts:
    total: int
    done: int
    no_answer: int
    skipped: int
    pending: int
    unfinished: int

    def to_dict(self) -> dict[str, Any]:
        total = self.total

        done = self.done

        no_answer = self.no_answer

        skipped = self.skipped

        pending = self.pending

        unfinished = self.unfinished

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "total": total,
                "done": done,
                "no_answer": no_answer,
                "skipped": skipped,
                "pending": pending,
                "unfinished": unfinished,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        total = d.pop("total")

        done = d.pop("done")

        no_answer = d.pop("no_answer")

        skipped = d.pop("skipped")

        pending = d.pop("pending")

        unfinished = d.pop("unfinished")

        campaign_run_contacts = cls(
            total=total,
            done=done,
            no_answer=no_answer,
            skipped=skipped,
            pending=pending,
            unfinished=unfinished,
        )

        return campaign_run_contacts

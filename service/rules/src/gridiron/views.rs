//! What each viewer may see: the generic board view and the Gridiron details.

use super::field::{self, AWAY, HOME};
use super::{Details, Gridiron, Phase, PieceDetails};
use crate::board::{BallView, BoardView, PieceView, Zone, ZoneKind};
use crate::game::Viewer;

impl Gridiron {
    /// Whether the viewer may know who holds the ball (the offence always does).
    fn sees_holder(&self, viewer: Viewer) -> bool {
        self.fake.is_none() || viewer == Viewer::Seat(self.offense)
    }

    pub(crate) fn board_view(&self, viewer: Viewer) -> BoardView {
        let zones = [HOME, AWAY]
            .into_iter()
            .map(|owner| Zone {
                kind: ZoneKind::EndZone,
                owner: Some(owner),
                squares: field::end_zone_squares(owner),
            })
            .collect();
        let pieces = self
            .pieces
            .iter()
            .map(|p| PieceView {
                id: p.id,
                owner: p.owner,
                kind: p.kind.name().to_owned(),
                symbol: p.kind.symbol().to_string(),
                square: p.loc.square,
                spot: p.loc.spot.name().to_owned(),
            })
            .collect();
        let ball = (!self.pieces.is_empty()).then(|| match self.fake {
            Some(fake) if !self.sees_holder(viewer) => BallView {
                square: None,
                holder: None,
                possible_holders: vec![fake.passer, fake.partner],
            },
            _ => BallView::held(Some(self.piece(self.holder).loc.square), self.holder),
        });
        BoardView {
            files: field::FILES as u8,
            ranks: field::RANKS as u8,
            zones,
            pieces,
            ball,
        }
    }

    pub(crate) fn details_view(&self, viewer: Viewer) -> Details {
        let own_seat = match viewer {
            Viewer::Seat(seat) => Some(seat),
            Viewer::Spectator => None,
        };
        let in_down = !matches!(self.phase, Phase::Roster | Phase::Over);
        let pieces = self
            .pieces
            .iter()
            .map(|p| PieceDetails {
                id: p.id,
                owner: p.owner,
                kind: p.kind,
                location: p.loc,
                used: p.used.clone(),
                movement_change: p.change_now,
                frozen: p.frozen_now,
                jammed: self.jammed(p.id),
                anchored: self.anchored(p.id),
                sealing: self.sealing(p.id),
            })
            .collect();
        Details {
            phase: self.phase_name().to_owned(),
            offense: in_down.then_some(self.offense),
            down: self.down,
            line_of_scrimmage: self.los,
            first_down_line: self.line,
            turn: self.round,
            turns_per_down: self.settings.turns_per_down,
            period: self.period,
            possessions: self.possessions.to_vec(),
            possessions_per_period: self.period_drives() / 2,
            scores: self.scores.to_vec(),
            committed: [HOME, AWAY]
                .into_iter()
                .filter(|s| self.committed[s.index()])
                .collect(),
            own_orders: own_seat
                .map(|s| self.plans[s.index()].clone())
                .unwrap_or_default(),
            own_roster: own_seat.filter(|_| self.phase == Phase::Roster).map(|s| {
                let draft = &self.drafts[s.index()];
                (draft.captain, draft.standard.clone())
            }),
            pieces,
            ball_hidden: self.fake.is_some(),
            pass_thrown: self.pass_thrown,
        }
    }
}

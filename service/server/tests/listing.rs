//! ListMatches: newest first, filtered by variant, status and player, paged with tokens that
//! stay valid while matches are created.

mod common;

use common::*;
use pitchmate_proto::v1 as pb;

#[tokio::test]
async fn matches_list_newest_first_page_stably_and_filter() {
    let server = start().await;
    let mut client = server.matches().await;
    let mut created = Vec::new();
    for _ in 0..5 {
        created.push(create(&mut client).await.match_id);
    }
    let active = seated(&mut client).await.match_id;
    created.push(active.clone());

    let first_page = client
        .list_matches(pb::ListMatchesRequest {
            page_size: 2,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    let ids = |matches: &[pb::Match]| {
        matches
            .iter()
            .map(|m| m.match_id.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        ids(&first_page.matches),
        [created[5].clone(), created[4].clone()]
    );
    assert!(!first_page.next_page_token.is_empty());

    // Matches created between pages do not shift the next page.
    create(&mut client).await;
    let mut rest = Vec::new();
    let mut token = first_page.next_page_token;
    while !token.is_empty() {
        let page = client
            .list_matches(pb::ListMatchesRequest {
                page_size: 2,
                page_token: token,
                ..Default::default()
            })
            .await
            .unwrap()
            .into_inner();
        rest.extend(ids(&page.matches));
        token = page.next_page_token;
    }
    let older: Vec<String> = created[..4].iter().rev().cloned().collect();
    assert_eq!(rest, older);

    let only_active = client
        .list_matches(pb::ListMatchesRequest {
            status: pb::MatchStatus::Active as i32,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(ids(&only_active.matches), std::slice::from_ref(&active));
    let other_variant = client
        .list_matches(pb::ListMatchesRequest {
            variant_id: "chessyball".into(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert!(other_variant.matches.is_empty());
    let by_variant = client
        .list_matches(pb::ListMatchesRequest {
            variant_id: SOCCER_CHESS.into(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(by_variant.matches.len(), 7);

    // By player: the matches in which a player of that name took a seat, waiting ones too.
    let waiting = create(&mut client).await.match_id;
    client
        .join_match(pb::JoinMatchRequest {
            match_id: waiting.clone(),
            seat: String::new(),
            player_name: "bob".into(),
        })
        .await
        .unwrap();
    let by_player = |name: &str| pb::ListMatchesRequest {
        player_name: name.into(),
        ..Default::default()
    };
    let bobs = client
        .list_matches(by_player("bob"))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(ids(&bobs.matches), [waiting, active.clone()]);
    let alices = client
        .list_matches(by_player("alice"))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(ids(&alices.matches), std::slice::from_ref(&active));
    let nobody = client
        .list_matches(by_player("carol"))
        .await
        .unwrap()
        .into_inner();
    assert!(nobody.matches.is_empty());
    let bobs_first = client
        .list_matches(pb::ListMatchesRequest {
            page_size: 1,
            ..by_player("bob")
        })
        .await
        .unwrap()
        .into_inner();
    let bobs_rest = client
        .list_matches(pb::ListMatchesRequest {
            page_size: 1,
            page_token: bobs_first.next_page_token.clone(),
            ..by_player("bob")
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(ids(&bobs_rest.matches), [active]);
    assert!(bobs_rest.next_page_token.is_empty());
    let other_player = client
        .list_matches(pb::ListMatchesRequest {
            page_token: bobs_first.next_page_token,
            ..by_player("alice")
        })
        .await
        .unwrap_err();
    assert_eq!(reason(&other_player), "INVALID_ARGUMENT");

    // A token is tied to its filters.
    let filtered = client
        .list_matches(pb::ListMatchesRequest {
            page_size: 1,
            status: pb::MatchStatus::Waiting as i32,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    let status = client
        .list_matches(pb::ListMatchesRequest {
            page_token: filtered.next_page_token,
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(reason(&status), "INVALID_ARGUMENT");
    server.stop().await;
}
